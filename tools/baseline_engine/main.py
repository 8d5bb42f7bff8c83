#!/usr/bin/env python3
"""The frozen baseline engine for the arena (a tool, not shipped in the layer).

Verbatim copies of ``connect6.ai`` at earlier versions, with imports renamed:

* ``c6base_v0``: the first version, a one-ply player (wins now, blocks exactly, otherwise the
  best window-scored pair);
* ``c6base_v1``: the first searching version (alpha-beta over pairs with iterative deepening
  and a TT, VCDT, opponent-VCDT check), commit "opponent-VCDT safety check";
* ``c6base_v2`` (the default): the version of the first arena tables in docs/ai.md (faster
  VCDT, refutation-steered safety check, tuned levels);
* ``c6base_v3``: v2 with hard's safety check against 5-turn opponent VCDTs (instead of 4).

They speak the same text protocol:
``python tools/baseline_engine/main.py [--version v0|v1|v2|v3] --size 19 --level normal``.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent / "layers" / "connect6"))


def main(argv: list[str]) -> int:
    version = "v2"
    if "--version" in argv:
        i = argv.index("--version")
        version = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    protocol = importlib.import_module(f"c6base_{version}.protocol")
    protocol.__dict__["NAME"] = f"connect6-py-baseline-{version}"
    return int(protocol.main(argv))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
