"""The examples in the rules and records docstrings run and hold."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["connect6.rules.position", "connect6.records.labels",
                                  "connect6.records.record", "connect6.records.replayer"])
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
