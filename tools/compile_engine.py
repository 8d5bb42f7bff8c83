#!/usr/bin/env python3
"""Compile the engine's hot modules with mypyc, in place, for the Python running this script.

    python tools/compile_engine.py            # build when a source changed (about 20-40 s)
    python tools/compile_engine.py --force    # build anyway
    python tools/compile_engine.py --clean    # remove the compiled modules: the pure engine again
    python tools/compile_engine.py --status   # which modules are compiled, and whether any is stale
    python3.12 tools/compile_engine.py --layer .aws-sam/build/EngineLayer/python --strict
                                              # a built Lambda layer (docs/ai.md, "Compiled core")

The compiled modules are build products next to their sources (``board.cpython-311-….so`` beside
``board.py``; Python prefers the extension module), never committed. They are tagged with the
Python version they were built for, so another Python (Lambda's 3.12, say) ignores them and
imports the pure-Python sources: the pure engine is always the fallback. A build that cannot run
(no C compiler, no Python headers, no mypyc) leaves the pure engine in place and exits 0 with a
warning unless ``--strict`` is given.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYER = ROOT / "layers" / "connect6"  # the folder holding the connect6 package
# What the profile says pays (docs/ai.md, "Compiled core"): the board's make/undo, move
# generation, the VCDT solver and the alpha-beta search. The clock stays pure Python, so
# ``clock.use_cpu_time`` keeps switching the ``now()`` those modules call.
MODULES = ("board", "movegen", "vcdt", "search")
# All four share one mypyc runtime library, placed in the package beside them.
GROUP = "connect6.ai._engine"


def _ai(layer: Path) -> Path:
    return layer / "connect6" / "ai"


def compiled_files(layer: Path = LAYER) -> list[Path]:
    """Every extension module in the engine package, for any Python version."""
    return sorted(p for p in _ai(layer).iterdir() if p.suffix in (".so", ".pyd"))


def _suffix() -> str:
    return importlib.machinery.EXTENSION_SUFFIXES[0]


def stale_modules(layer: Path = LAYER) -> list[str]:
    """Modules whose extension for this Python is older than their source."""
    ai = _ai(layer)
    out = []
    for name in MODULES:
        ext = ai / f"{name}{_suffix()}"
        if ext.exists() and ext.stat().st_mtime < (ai / f"{name}.py").stat().st_mtime:
            out.append(name)
    return out


def up_to_date(layer: Path = LAYER) -> bool:
    """Every module compiled for this Python, newer than its source and than this script."""
    ai = _ai(layer)
    exts = [ai / f"{name}{_suffix()}" for name in (*MODULES, GROUP.rpartition(".")[2] + "__mypyc")]
    if not all(ext.exists() for ext in exts):
        return False
    oldest = min(ext.stat().st_mtime for ext in exts)
    sources = [ai / f"{name}.py" for name in MODULES] + [Path(__file__).resolve()]
    return all(src.stat().st_mtime <= oldest for src in sources)


def clean(layer: Path = LAYER) -> None:
    for path in compiled_files(layer):
        path.unlink()
        print(f"removed {path}")


def build(strict: bool, layer: Path = LAYER) -> int:
    try:
        import mypyc.build  # noqa: F401  (present with the pinned mypy)
    except ImportError:
        return _give_up("mypyc is not installed (it comes with mypy)", strict)
    if shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None:
        return _give_up("no C compiler", strict)
    t0 = time.perf_counter()
    sources = [f"connect6/ai/{name}.py" for name in MODULES]
    with tempfile.TemporaryDirectory(prefix="connect6-mypyc-") as tmp:
        # mypyc runs inside setuptools' build_ext; everything it writes (C sources, objects, its
        # type-check cache) goes to the temporary folder, only the modules are copied back.
        options = ["--cache-dir", f"{tmp}/cache"]
        build_args = ["build_ext", "--build-temp", f"{tmp}/temp", "--build-lib", f"{tmp}/lib"]
        setup_py = Path(tmp) / "setup.py"
        setup_py.write_text(
            "from setuptools import setup\n"
            "from mypyc.build import mypycify\n"
            f"setup(name='connect6-engine', script_args={build_args!r},\n"
            f"      ext_modules=mypycify({options + sources!r}, group_name={GROUP!r},\n"
            f"                           target_dir={tmp + '/c'!r}))\n"
        )
        # The sources are read relative to the layer, so 'connect6' is the package root.
        result = subprocess.run([sys.executable, str(setup_py)], cwd=layer, capture_output=True, text=True,
                                check=False)
        if result.returncode != 0:
            sys.stderr.write(result.stdout[-4000:] + result.stderr[-4000:])
            return _give_up("the mypyc build failed (output above)", strict)
        built = sorted(_ai(Path(tmp) / "lib").glob(f"*{_suffix()}"))
        ai = _ai(layer)
        for path in built:
            # Copy, then rename over the old module: a running engine (an arena game) keeps the
            # file it has loaded instead of seeing it rewritten under it.
            part = ai / f".{path.name}.part"
            shutil.copy2(path, part)
            os.replace(part, ai / path.name)
            print(f"wrote {ai / path.name}")
    print(f"compiled {', '.join(MODULES)} for Python {sys.version_info.major}.{sys.version_info.minor} "
          f"in {time.perf_counter() - t0:.1f} s")
    return 0


def _give_up(why: str, strict: bool) -> int:
    print(f"{'error' if strict else 'warning'}: {why}; the engine stays pure Python", file=sys.stderr)
    return 1 if strict else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clean", action="store_true", help="remove the compiled modules")
    ap.add_argument("--status", action="store_true", help="list the compiled modules and stale ones")
    ap.add_argument("--strict", action="store_true", help="fail (exit 1) when the build cannot run")
    ap.add_argument("--force", action="store_true", help="build even when the modules are up to date")
    ap.add_argument("--layer", type=Path, default=LAYER,
                    help="the folder holding the connect6 package (default: this repository's layer)")
    args = ap.parse_args(argv)
    layer = args.layer.resolve()
    if args.clean:
        clean(layer)
        return 0
    if args.status:
        for path in compiled_files(layer):
            print(path)
        stale = stale_modules(layer)
        if stale:
            print(f"stale (older than the source): {', '.join(stale)}; run `make compile`")
        return 1 if stale else 0
    if not args.force and up_to_date(layer):
        print(f"compiled engine up to date for Python {sys.version_info.major}.{sys.version_info.minor}")
        return 0
    return build(args.strict, layer)


if __name__ == "__main__":
    raise SystemExit(main())
