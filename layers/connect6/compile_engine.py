#!/usr/bin/env python3
"""Compile the engine's hot modules with mypyc, and its C search kernel with Cython, in place, for the
Python running this script.

    python tools/compile_engine.py            # build what is older than its source (about 20-40 s)
    python tools/compile_engine.py --force    # build everything anyway
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

The C search kernel, ``connect6/ai/_csearch.pyx``, is a Cython module: ``vcdt.py`` imports it when
it is there and runs its own pure-Python solver otherwise. It is cythonized (language level 3,
Python's own C flags) with the pinned Cython (``build-requirements.txt``) in a temporary folder of
its own, where the generated C stays, and only ``_csearch.cpython-311-….so`` is put beside the
``.pyx``. The two builds are independent: each runs only when its own sources (or this script) are
newer than its modules, and each failure leaves its part pure, with a warning (exit 0 unless
``--strict``). Without the ``.pyx`` nothing is built for it (and a module left of it is removed).

``--lambda`` builds for the Lambda runtime (python3.12 on x86_64 Linux, glibc 2.34): it builds
only with a Python 3.12 on an x86_64 Linux machine with a C compiler and the Python headers,
installs the pinned mypyc and Cython (``build-requirements.txt``) into a temporary folder when that
Python lacks one it needs, and keeps the modules only if the glibc symbol versions they need are
ones Lambda has and, loaded by that Python with only the layer on the path, they play a move;
otherwise the layer ships the pure engine, with a warning (exit 0 unless ``--strict``). The kernel
is built only when the mypyc modules are; when the kernel alone fails (Cython not installable, its
build, its glibc versions, its load), the layer ships the mypyc modules and the pure kernel, with a
warning. The layer's Makefile passes ``--strict``: there any of these failures fails ``sam build``
(``COMPILE=0`` ships the pure engine on purpose).
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
# The Cython C search kernel (connect6/ai/_csearch.pyx), built when its source is there; a .pxd of
# the same name, when there is one, is a source of it too.
KERNEL = "_csearch"
KERNEL_SOURCES = (f"{KERNEL}.pyx", f"{KERNEL}.pxd")
KERNEL_PART = "the C search kernel"


def _ai(layer: Path) -> Path:
    return layer / "connect6" / "ai"


def compiled_files(layer: Path = LAYER) -> list[Path]:
    """Every extension module in the engine package, for any Python version."""
    return sorted(p for p in _ai(layer).iterdir() if p.suffix in (".so", ".pyd"))


def _suffix() -> str:
    return importlib.machinery.EXTENSION_SUFFIXES[0]


def has_kernel(layer: Path = LAYER) -> bool:
    """The Cython kernel's source is in the package."""
    return (_ai(layer) / KERNEL_SOURCES[0]).exists()


def _kernel_sources(layer: Path) -> list[Path]:
    return [path for path in (_ai(layer) / name for name in KERNEL_SOURCES) if path.exists()]


def _kernel_extension(layer: Path) -> Path:
    return _ai(layer) / f"{KERNEL}{_suffix()}"


def stale_modules(layer: Path = LAYER) -> list[str]:
    """The sources (``board.py``, ``_csearch.pyx``) whose extension module for this Python is
    older than they are; a kernel module whose ``.pyx`` is gone is stale too (Python imports it)."""
    ai = _ai(layer)
    out = []
    for name in MODULES:
        ext = ai / f"{name}{_suffix()}"
        if ext.exists() and ext.stat().st_mtime < (ai / f"{name}.py").stat().st_mtime:
            out.append(f"{name}.py")
    kernel = _kernel_extension(layer)
    if kernel.exists():
        if not has_kernel(layer):
            out.append(f"{KERNEL_SOURCES[0]} (removed)")
        out += [src.name for src in _kernel_sources(layer) if kernel.stat().st_mtime < src.stat().st_mtime]
    return out


def _extensions(layer: Path) -> list[Path]:
    """The extension modules a build for this Python writes: the four and their shared library."""
    return [_ai(layer) / f"{name}{_suffix()}" for name in (*MODULES, GROUP.rpartition(".")[2] + "__mypyc")]


def _newer(exts: list[Path], sources: list[Path]) -> bool:
    """Every module in ``exts`` exists and is newer than every source and than this script."""
    if not all(ext.exists() for ext in exts):
        return False
    oldest = min(ext.stat().st_mtime for ext in exts)
    return all(src.stat().st_mtime <= oldest for src in [*sources, Path(__file__).resolve()])


def _mypyc_up_to_date(layer: Path) -> bool:
    return _newer(_extensions(layer), [_ai(layer) / f"{name}.py" for name in MODULES])


def _kernel_up_to_date(layer: Path) -> bool:
    """The kernel's module is newer than its sources, or there is no kernel and no module of it."""
    if not has_kernel(layer):
        return not _kernel_extension(layer).exists()
    return _newer([_kernel_extension(layer)], _kernel_sources(layer))


def up_to_date(layer: Path = LAYER) -> bool:
    """Every module compiled for this Python (the kernel too when its source is there), newer than
    its sources and than this script."""
    return _mypyc_up_to_date(layer) and _kernel_up_to_date(layer)


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


def _has_cython() -> bool:
    """Cython and setuptools (the kernel builds through setuptools' build_ext) are importable here."""
    return all(importlib.util.find_spec(name) is not None for name in ("Cython", "setuptools"))


def build(strict: bool, layer: Path = LAYER, force: bool = False) -> int:
    """Compile the modules into ``layer`` for this Python (those older than their sources, or all
    with ``force``), or keep the pure engine (or the pure kernel) with a warning."""
    code = 0
    if force or not _mypyc_up_to_date(layer):
        if not _has_mypyc():
            code = _give_up("mypyc or setuptools is not installed (build-requirements.txt)", strict)
        else:
            why = _cannot_compile() or _compile(layer)
            code = _give_up(why, strict) if why else 0
    if force or not _kernel_up_to_date(layer):
        code = max(code, _build_kernel(strict, layer))
    return code


def _build_kernel(strict: bool, layer: Path) -> int:
    """Cythonize the kernel into ``layer``, or leave the pure kernel with a warning (a module of an
    older source is removed then, not imported); without its source, remove a module left of one."""
    if not has_kernel(layer):
        _remove_kernel(layer)
        return 0
    why = ("Cython or setuptools is not installed (build-requirements.txt)" if not _has_cython()
           else _cannot_compile() or _cythonize(layer))
    if why:
        _remove_kernel(layer)
        return _give_up(why, strict, KERNEL_PART)
    return 0


def _remove_kernel(layer: Path) -> None:
    kernel = _kernel_extension(layer)
    if kernel.exists():
        kernel.unlink()
        print(f"removed {kernel}")


def _copy_package(layer: Path, dest: Path) -> None:
    """The ``connect6`` package of ``layer`` without build products, to build from."""
    shutil.copytree(layer / "connect6", dest / "connect6",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "*.part", "*.c", "__pycache__"))


def _env(tools_path: str | None) -> dict[str, str]:
    """This environment, with ``tools_path`` (the pinned build tools) first on the path if given."""
    env = dict(os.environ)
    if tools_path:
        env["PYTHONPATH"] = tools_path + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def _put_beside_sources(built: list[Path], layer: Path) -> None:
    ai = _ai(layer)
    for path in built:
        # Copy, then rename over the old module: a running engine (an arena game) keeps the
        # file it has loaded instead of seeing it rewritten under it.
        part = ai / f".{path.name}.part"
        shutil.copy2(path, part)
        os.replace(part, ai / path.name)
        print(f"wrote {ai / path.name}")


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
        _copy_package(layer, src)
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
        result = subprocess.run([sys.executable, str(setup_py)], cwd=src, capture_output=True, text=True,
                                check=False, env=_env(mypyc_path))
        if result.returncode != 0:
            sys.stderr.write(result.stdout[-4000:] + result.stderr[-4000:])
            return "the mypyc build failed (output above)"
        _put_beside_sources(sorted(_ai(Path(tmp) / "lib").glob(f"*{_suffix()}")), layer)
    print(f"compiled {', '.join(MODULES)} for Python {sys.version_info.major}.{sys.version_info.minor} "
          f"in {time.perf_counter() - t0:.1f} s")
    return None


def _cythonize(layer: Path, cython_path: str | None = None) -> str | None:
    """Build the kernel's extension module and put it beside its ``.pyx`` in ``layer``; why not, if
    it failed. ``cython_path``: a folder holding Cython and setuptools, when this Python has none."""
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="connect6-cython-") as tmp:
        # Like the mypyc build: a copy of the package (so the module is connect6.ai._csearch), the
        # generated C, the objects and the module in the temporary folder; only the module comes back.
        src = Path(tmp) / "src"
        _copy_package(layer, src)
        build_args = ["build_ext", "--build-temp", f"{tmp}/temp", "--build-lib", f"{tmp}/lib"]
        extension = (f"connect6.ai.{KERNEL}", [f"connect6/ai/{KERNEL_SOURCES[0]}"])
        setup_py = Path(tmp) / "setup.py"
        setup_py.write_text(
            "from Cython.Build import cythonize\n"
            "from setuptools import Extension, setup\n"
            f"setup(name='connect6-csearch', script_args={build_args!r},\n"
            f"      ext_modules=cythonize([Extension(*{extension!r})], build_dir={tmp + '/c'!r},\n"
            "                            compiler_directives={'language_level': 3}, force=True))\n"
        )
        result = subprocess.run([sys.executable, str(setup_py)], cwd=src, capture_output=True, text=True,
                                check=False, env=_env(cython_path))
        built = _ai(Path(tmp) / "lib") / f"{KERNEL}{_suffix()}"
        if result.returncode != 0 or not built.exists():
            sys.stderr.write(result.stdout[-4000:] + result.stderr[-4000:])
            return "the Cython build failed (output above)"
        _put_beside_sources([built], layer)
    print(f"compiled {KERNEL} with Cython for Python {sys.version_info.major}.{sys.version_info.minor} "
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
# modules load (no mypy, mypy_extensions, librt or Cython needed at run time) and play a legal move.
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


def _smoke(layer: Path, modules: list[str]) -> str | None:
    """Run SMOKE on ``layer``: None if every one of ``modules`` loads as an extension module and the
    engine plays, else the run's output."""
    # -B: no __pycache__ left in the layer.
    smoke = subprocess.run([sys.executable, "-s", "-B", "-c", SMOKE, *modules], capture_output=True,
                           text=True, check=False, cwd=layer,
                           env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(layer)})
    files = json.loads(smoke.stdout) if smoke.returncode == 0 else []
    if files and len(files) == len(modules) and all(str(f).endswith(_suffix()) for f in files):
        return None
    return smoke.stdout[-2000:] + smoke.stderr[-2000:]


def build_for_lambda(strict: bool, layer: Path) -> int:
    """The compiled modules for a Lambda layer folder, or the pure engine with a warning (the mypyc
    modules with the pure kernel, when only the kernel fails)."""
    if sys.platform != "linux" or platform.machine() != LAMBDA_MACHINE:
        return _give_up(f"not an {LAMBDA_MACHINE} Linux machine (Lambda's architecture)", strict)
    if sys.version_info[:2] != LAMBDA_PYTHON:
        return _give_up(f"Python {sys.version_info.major}.{sys.version_info.minor} is running this, "
                        f"Lambda runs {_version(LAMBDA_PYTHON)} (it would ignore the modules)", strict)
    why = _cannot_compile()
    if why:  # before installing anything
        return _give_up(why, strict)
    kernel = has_kernel(layer)
    kernel_why: str | None = None  # why the layer ships the pure kernel, when it has a .pyx
    with tempfile.TemporaryDirectory(prefix="connect6-build-tools-") as tools:
        # The build machine's Python (a plain python3.12, Lambda's build image) has no mypy and no
        # Cython: the pinned ones, for this build only. Each build gets the folder only if its
        # Python lacks the tool, so an installed mypyc is not replaced for the mypyc build.
        need_mypyc = not _has_mypyc()
        need_cython = kernel and not _has_cython()
        if need_mypyc or need_cython:
            result = subprocess.run(
                [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                 "--no-compile", "--target", tools, "-r", str(BUILD_REQUIREMENTS)],
                capture_output=True, text=True, check=False)
            if result.returncode != 0:
                sys.stderr.write(result.stdout[-2000:] + result.stderr[-2000:])
                if need_mypyc:
                    return _give_up("could not install mypyc (build-requirements.txt: pip's output above)",
                                    strict)
                kernel_why = "could not install Cython (build-requirements.txt: pip's output above)"
        why = _compile(layer, tools if need_mypyc else None)
        if why:
            clean(layer)
            return _give_up(why, strict)
        if kernel and kernel_why is None:
            kernel_why = _cythonize(layer, tools if need_cython else None)
    if not all(path.exists() for path in _extensions(layer)):
        clean(layer)
        return _give_up("the build did not write every module", strict)
    newest = max(glibc_needs(path) for path in _extensions(layer))
    if newest > LAMBDA_GLIBC:
        clean(layer)
        return _give_up(f"the modules need glibc {_version(newest)}, newer than Lambda's "
                        f"{_version(LAMBDA_GLIBC)}", strict)
    ext = _kernel_extension(layer)
    if kernel and kernel_why is None:
        if not ext.exists():
            kernel_why = "the Cython build did not write the kernel's module"
        elif glibc_needs(ext) > LAMBDA_GLIBC:
            kernel_why = (f"the kernel's module needs glibc {_version(glibc_needs(ext))}, newer than "
                          f"Lambda's {_version(LAMBDA_GLIBC)}")
    if kernel_why:
        _remove_kernel(layer)
    modules = [*MODULES, *([KERNEL] if kernel and ext.exists() else [])]
    failed = _smoke(layer, modules)
    if failed and KERNEL in modules:
        # The kernel alone may be what fails: the layer can still ship the mypyc modules.
        sys.stderr.write(failed)
        _remove_kernel(layer)
        kernel_why = "the kernel's module did not load or play (output above)"
        modules = list(MODULES)
        failed = _smoke(layer, modules)
    if failed:
        sys.stderr.write(failed)
        clean(layer)
        return _give_up("the compiled engine did not load or play (output above)", strict)
    newest = max(glibc_needs(path) for path in compiled_files(layer))
    print(f"the compiled modules load and play ({', '.join(modules)}); they need glibc {_version(newest)} "
          f"(Lambda's python3.12 has {_version(LAMBDA_GLIBC)})")
    return _give_up(kernel_why, strict, KERNEL_PART) if kernel_why else 0


def _give_up(why: str, strict: bool, part: str = "the engine") -> int:
    print(f"{'error' if strict else 'warning'}: {why}; {part} stays pure Python", file=sys.stderr)
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
                    help="build for Lambda (installs mypyc and Cython if missing; checks glibc, "
                         "loads and plays)")
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
    return build(args.strict, layer, force=args.force)


if __name__ == "__main__":
    raise SystemExit(main())
