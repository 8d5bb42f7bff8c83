#!/usr/bin/env python3
"""The frozen baseline engine for the arena (a tool, not shipped in the layer).

``c6base_v0`` is a verbatim copy of ``connect6.ai`` at its first version (the one-ply player:
wins now, blocks exactly, otherwise the best window-scored pair), with imports renamed. It
speaks the same text protocol: ``python tools/baseline_engine/main.py --size 19 --level normal``.
``--version v1`` selects a later frozen copy when one exists.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent / "layers" / "connect6"))


def main(argv: list[str]) -> int:
    version = "v0"
    if "--version" in argv:
        i = argv.index("--version")
        version = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    protocol = importlib.import_module(f"c6base_{version}.protocol")
    protocol.__dict__["NAME"] = f"connect6-py-baseline-{version}"
    return int(protocol.main(argv))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
