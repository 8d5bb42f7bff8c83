#!/usr/bin/env python3
"""Compile the engine's hot modules with mypyc, in place, for the Python running this script.

    python tools/compile_engine.py            # build when a source changed (about 20-40 s)
    python tools/compile_engine.py --force    # build anyway
    python tools/compile_engine.py --clean    # remove the compiled modules: the pure engine again
    python tools/compile_engine.py --status   # which modules are compiled, and whether any is stale
    python3.12 compile_engine.py --lambda --layer "$ARTIFACTS_DIR/python"
                                              # the Lambda layer (this folder's Makefile, run by sam build)

This script lives in the layer's folder (``tools/compile_engine.py`` runs it) because ``sam build``
runs the layer's Makefile in a copy of this folder only. The Makefile copies the ``connect6``
package into the layer, not this script.

The compiled modules are build products next to their sources (``board.cpython-311-….so`` beside
``board.py``; Python prefers the extension module), never committed. They are tagged with the
Python version they were built for, so another Python ignores them and imports the pure-Python
sources: the pure engine is always the fallback. A build that cannot run (no C compiler, no Python
headers, no mypyc) leaves the pure engine in place and exits 0 with a warning unless ``--strict``
is given. mypy reads no configuration file for the build (``--config-file ''``), so the modules
come out the same wherever the sources sit (the repository, SAM's copy of this folder).

``--lambda`` builds for the Lambda runtime (python3.12 on x86_64 Linux, glibc 2.34): it builds
only with a Python 3.12 on an x86_64 Linux machine with a C compiler and the Python headers,
installs the pinned mypyc (``build-requirements.txt``) into a temporary folder when that Python
has none, and keeps the modules only if the glibc symbol versions they need are ones Lambda has;
otherwise the layer ships the pure engine, with a warning (exit 0 unless ``--strict``).
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
LAYER = HERE  # the folder holding the connect6 package
BUILD_REQUIREMENTS = HERE / "build-requirements.txt"
# What the Lambda runtime offers (template.yaml: python3.12, x86_64; Amazon Linux 2023's glibc).
LAMBDA_MACHINE = "x86_64"
LAMBDA_PYTHON = (3, 12)
LAMBDA_GLIBC = (2, 34)
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


def _extensions(layer: Path) -> list[Path]:
    """The extension modules a build for this Python writes: the four and their shared library."""
    return [_ai(layer) / f"{name}{_suffix()}" for name in (*MODULES, GROUP.rpartition(".")[2] + "__mypyc")]


def up_to_date(layer: Path = LAYER) -> bool:
    """Every module compiled for this Python, newer than its source and than this script."""
    ai = _ai(layer)
    exts = _extensions(layer)
    if not all(ext.exists() for ext in exts):
        return False
    oldest = min(ext.stat().st_mtime for ext in exts)
    sources = [ai / f"{name}.py" for name in MODULES] + [Path(__file__).resolve()]
    return all(src.stat().st_mtime <= oldest for src in sources)


def clean(layer: Path = LAYER) -> None:
    for path in compiled_files(layer):
        path.unlink()
        print(f"removed {path}")


def _cannot_compile() -> str | None:
    """Why this machine cannot build a C extension for the running Python, or None if it can."""
    cc = (os.environ.get("CC") or "cc").split()[0]
    if shutil.which(cc) is None and shutil.which("gcc") is None:
        return "no C compiler"
    include = Path(sysconfig.get_paths()["include"])
    if not (include / "Python.h").exists():
        return f"no Python headers ({include / 'Python.h'} is missing)"
    return None


def _has_mypyc() -> bool:
    """mypyc and setuptools (mypyc builds through setuptools' build_ext) are importable here."""
    return all(importlib.util.find_spec(name) is not None for name in ("mypyc", "setuptools"))


def build(strict: bool, layer: Path = LAYER) -> int:
    """Compile the modules into ``layer`` for this Python, or keep the pure engine with a warning."""
    if not _has_mypyc():
        return _give_up("mypyc or setuptools is not installed (build-requirements.txt)", strict)
    why = _cannot_compile() or _compile(layer)
    return _give_up(why, strict) if why else 0


def _compile(layer: Path, mypyc_path: str | None = None) -> str | None:
    """Build the extension modules and put them beside their sources in ``layer``; why not, if it
    failed. ``mypyc_path``: a folder holding mypyc and setuptools, when this Python has none."""
    t0 = time.perf_counter()
    sources = [f"connect6/ai/{name}.py" for name in MODULES]
    with tempfile.TemporaryDirectory(prefix="connect6-mypyc-") as tmp:
        # mypyc runs inside setuptools' build_ext; everything it writes (C sources, objects, its
        # type-check cache) goes to the temporary folder, only the modules are copied back. It
        # compiles a copy of the package alone: a layer folder also holds the dependencies
        # (typing_extensions.py, ...), which mypy would take for modules shadowing its own. No mypy
        # configuration either: the repository's (found from the working directory up) is for
        # checking, and a copy of the layer has none.
        src = Path(tmp) / "src"
        shutil.copytree(layer / "connect6", src / "connect6",
                        ignore=shutil.ignore_patterns("*.so", "*.pyd", "*.part", "__pycache__"))
        options = ["--config-file", "", "--cache-dir", f"{tmp}/cache"]
        build_args = ["build_ext", "--build-temp", f"{tmp}/temp", "--build-lib", f"{tmp}/lib"]
        setup_py = Path(tmp) / "setup.py"
        setup_py.write_text(
            "from setuptools import setup\n"
            "from mypyc.build import mypycify\n"
            f"setup(name='connect6-engine', script_args={build_args!r},\n"
            f"      ext_modules=mypycify({options + sources!r}, group_name={GROUP!r},\n"
            f"                           target_dir={tmp + '/c'!r}))\n"
        )
        # The sources are read relative to the copy, so 'connect6' is the package root.
        env = dict(os.environ)
        if mypyc_path:
            env["PYTHONPATH"] = mypyc_path + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        result = subprocess.run([sys.executable, str(setup_py)], cwd=src, capture_output=True, text=True,
                                check=False, env=env)
        if result.returncode != 0:
            sys.stderr.write(result.stdout[-4000:] + result.stderr[-4000:])
            return "the mypyc build failed (output above)"
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
    return None


def glibc_needs(path: Path) -> tuple[int, ...]:
    """The newest glibc symbol version a compiled module asks for (``GLIBC_2.14`` -> (2, 14)),
    read from the version names in its dynamic string table; () when it names none."""
    found = re.findall(rb"GLIBC_(\d+(?:\.\d+)+)", path.read_bytes())
    return max((tuple(int(x) for x in v.split(b".")) for v in found), default=())


def _version(v: tuple[int, ...]) -> str:
    return ".".join(map(str, v)) or "none"


# Run on the built layer by the Python that built it, with only the layer on the path: the compiled
# modules load (no mypy, mypy_extensions or librt needed at run time) and play a legal move.
SMOKE = """
import importlib, json, sys
from connect6.ai import choose_move
from connect6.rules import Position
p = Position(19)
p.play([180])
move = choose_move(p, "hard", budget_s=0.3)
assert len(set(move)) == 2 and all(p.is_empty(s) for s in move), move
print(json.dumps([importlib.import_module(f"connect6.ai.{name}").__file__ for name in sys.argv[1:]]))
"""


def build_for_lambda(strict: bool, layer: Path) -> int:
    """The compiled modules for a Lambda layer folder, or the pure engine with a warning."""
    if sys.platform != "linux" or platform.machine() != LAMBDA_MACHINE:
        return _give_up(f"not an {LAMBDA_MACHINE} Linux machine (Lambda's architecture)", strict)
    if sys.version_info[:2] != LAMBDA_PYTHON:
        return _give_up(f"Python {sys.version_info.major}.{sys.version_info.minor} is running this, "
                        f"Lambda runs {_version(LAMBDA_PYTHON)} (it would ignore the modules)", strict)
    why = _cannot_compile()
    if why:  # before installing anything
        return _give_up(why, strict)
    with tempfile.TemporaryDirectory(prefix="connect6-mypyc-tools-") as tools:
        mypyc_path = None
        if not _has_mypyc():
            # The build machine's Python (a plain python3.12, Lambda's build image) has no mypy:
            # the pinned one, for this build only.
            result = subprocess.run(
                [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                 "--no-compile", "--target", tools, "-r", str(BUILD_REQUIREMENTS)],
                capture_output=True, text=True, check=False)
            if result.returncode != 0:
                sys.stderr.write(result.stdout[-2000:] + result.stderr[-2000:])
                return _give_up("could not install mypyc (build-requirements.txt: pip's output above)",
                                strict)
            mypyc_path = tools
        why = _compile(layer, mypyc_path)
    if why:
        clean(layer)
        return _give_up(why, strict)
    if not all(path.exists() for path in _extensions(layer)):
        clean(layer)
        return _give_up("the build did not write every module", strict)
    newest = max(glibc_needs(path) for path in compiled_files(layer))
    if newest > LAMBDA_GLIBC:
        clean(layer)
        return _give_up(f"the modules need glibc {_version(newest)}, newer than Lambda's "
                        f"{_version(LAMBDA_GLIBC)}", strict)
    # -B: no __pycache__ left in the layer.
    smoke = subprocess.run([sys.executable, "-s", "-B", "-c", SMOKE, *MODULES], capture_output=True,
                           text=True, check=False, cwd=layer,
                           env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(layer)})
    files = json.loads(smoke.stdout) if smoke.returncode == 0 else []
    if not all(str(f).endswith(_suffix()) for f in files) or not files:
        sys.stderr.write(smoke.stdout[-2000:] + smoke.stderr[-2000:])
        clean(layer)
        return _give_up("the compiled engine did not load or play (output above)", strict)
    print(f"the compiled modules load and play; they need glibc {_version(newest)} "
          f"(Lambda's python3.12 has {_version(LAMBDA_GLIBC)})")
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
    ap.add_argument("--lambda", dest="for_lambda", action="store_true",
                    help="build for Lambda (installs mypyc if missing; checks glibc, loads and plays)")
    args = ap.parse_args(argv)
    layer = args.layer.resolve()
    if args.for_lambda:
        return build_for_lambda(args.strict, layer)
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
