#!/usr/bin/env python3
"""``python -m tools.compile_engine [--force | --clean | --status]``: the engine's mypyc build.

The script itself is ``layers/connect6/compile_engine.py`` (``sam build`` runs the layer's Makefile
in a copy of that folder only, so the build script lives there); this entry point keeps the command
where the other tools are, and ``from tools.compile_engine import stale_modules`` working (the root
``conftest.py``). ``python tools/compile_engine.py`` works too: the layer's script is loaded from its
file (it needs only the standard library), so this runs before the venv has the project installed.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

SCRIPT = Path(__file__).resolve().parents[1] / "layers" / "connect6" / "compile_engine.py"


def _load() -> ModuleType:
    """The layer's script as the module ``compile_engine`` (the one already imported, if any)."""
    if "compile_engine" in sys.modules:
        return sys.modules["compile_engine"]
    spec = importlib.util.spec_from_file_location("compile_engine", SCRIPT)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {SCRIPT}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["compile_engine"] = module  # registered before it runs, as an import would
    spec.loader.exec_module(module)
    return module


if TYPE_CHECKING:
    from compile_engine import main, stale_modules
else:
    _engine = _load()
    main, stale_modules = _engine.main, _engine.stale_modules

__all__ = ["main", "stale_modules"]

if __name__ == "__main__":
    raise SystemExit(main())
