#!/usr/bin/env python3
"""``python tools/compile_engine.py [--force | --clean | --status]``: the engine's mypyc build.

The script itself is ``layers/connect6/compile_engine.py`` (``sam build`` runs the layer's Makefile
in a copy of that folder only, so the build script lives there); this entry point keeps the command
where the other tools are, and ``from tools.compile_engine import stale_modules`` working (the root
``conftest.py``).
"""

from __future__ import annotations

import sys
from pathlib import Path

# First on the path: this file's own folder (sys.path[0] when run as a script) holds a module of
# the same name.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "layers" / "connect6"))

from compile_engine import main, stale_modules

__all__ = ["main", "stale_modules"]

if __name__ == "__main__":
    raise SystemExit(main())
