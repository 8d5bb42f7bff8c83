#!/usr/bin/env python3
"""The frozen baseline engines for the arena (a tool, not shipped in the layer).

Verbatim copies of ``connect6.ai`` at earlier versions, with imports renamed:

* ``c6base_v0``: the first version, a one-ply player (wins now, blocks exactly, otherwise the
  best window-scored pair);
* ``c6base_v1``: the first searching version (alpha-beta over pairs with iterative deepening
  and a TT, VCDT, opponent-VCDT check), commit "opponent-VCDT safety check";
* ``c6base_v2`` (the default): the version of the first arena tables in docs/ai.md (faster
  VCDT, refutation-steered safety check, tuned levels);
* ``c6base_v3``: v2 with hard's safety check against 5-turn opponent VCDTs (instead of 4).

None is kept in the tree: each is read from the commit that froze it (``git archive``, needs the
repository's history) into a cache folder on first use, so the tree carries no copy of the engine.

They speak the same text protocol:
``python tools/lab/baseline_engine/main.py [--version v0|v1|v2|v3] --size 19 --level normal``.
"""

from __future__ import annotations

import importlib
import importlib.util
import io
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
DEFAULT = "v2"
# The commit at which each version was frozen (then under tools/baseline_engine/).
FROZEN_AT = {"v0": "bed7ecb", "v1": "2e29c45", "v2": "5c1d660", "v3": "cd02051"}


def _from_history(version: str) -> Path:
    """A folder holding ``c6base_<version>`` as committed at ``FROZEN_AT[version]``."""
    cache = Path(tempfile.gettempdir()) / f"connect6-baseline-{FROZEN_AT[version]}"
    if not (cache / f"c6base_{version}" / "__init__.py").exists():
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", FROZEN_AT[version],
             f"tools/baseline_engine/c6base_{version}"],
            capture_output=True, check=False)
        if archive.returncode != 0:
            raise SystemExit(f"baseline {version} needs the git history (commit {FROZEN_AT[version]}): "
                             f"{archive.stderr.decode(errors='replace').strip()}")
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(cache, filter="data")
        (cache / "tools" / "baseline_engine" / f"c6base_{version}").rename(cache / f"c6base_{version}")
    return cache


def _load_package(version: str) -> str:
    """Import ``c6base_<version>`` from its folder (its submodules then import through the package's
    ``__path__``, so nothing is put on ``sys.path``); the package's name."""
    name = f"c6base_{version}"
    folder = _from_history(version) / name
    spec = importlib.util.spec_from_file_location(name, folder / "__init__.py",
                                                  submodule_search_locations=[str(folder)])
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {folder}")
    package = importlib.util.module_from_spec(spec)
    sys.modules[name] = package
    spec.loader.exec_module(package)
    return name


def main(argv: list[str]) -> int:
    version = DEFAULT
    if "--version" in argv:
        i = argv.index("--version")
        version = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    if version not in FROZEN_AT:
        raise SystemExit(f"unknown baseline version {version!r}: v0, v1, v2 or v3")
    protocol = importlib.import_module(f"{_load_package(version)}.protocol")
    protocol.__dict__["NAME"] = f"connect6-py-baseline-{version}"
    return int(protocol.main(argv))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
