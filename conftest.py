"""Every example in the layer's docstrings runs as a test (pytest's doctest collector, limited to
the layer: tests/ and tools/ hold helper modules that are not meant to be imported on their own)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _pytest.doctest import DoctestModule

LAYER = Path(__file__).resolve().parent / "layers" / "connect6" / "connect6"


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> DoctestModule | None:
    # __main__.py runs the command line when imported; pytest's own collector skips it too.
    if file_path.suffix == ".py" and file_path.name != "__main__.py" and LAYER in file_path.resolve().parents:
        return DoctestModule.from_parent(parent, path=file_path)
    return None
