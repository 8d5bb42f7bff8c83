"""The compiled engine (tools/compile_engine.py: mypyc, and Cython for the C search kernel) plays exactly
the moves of the pure-Python one.

A Lambda layer built where the engine cannot be compiled runs the pure-Python sources (the layer's
Makefile falls back to them), and so does a machine without a C compiler, so the two must not
differ: on real positions from Little Golem games, at every level, with a fixed search depth and
a budget the clock never reaches, the compiled engine in this process and the pure engine in a
subprocess (a copy of the package without the extension modules, the kernel's among them) return
the same stones, reason, score, depth and node count.

``make test`` builds the compiled modules first and sets ``CONNECT6_EXPECT_COMPILED=1``, so there
this test must find them; elsewhere it is skipped when they are absent. And a Python of another
version (Lambda's 3.12) ignores modules compiled for this one: it imports and plays pure.
"""

from __future__ import annotations

import glob
import importlib
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from connect6.ai import LEVELS, search
from connect6.rules import Position
from tests.support.positions import LITTLE_GOLEM, load_games

ENGINE_MODULES = ("board", "movegen", "vcdt", "search")
PACKAGE = Path(importlib.import_module("connect6").__file__ or "").parent
# The Cython C search kernel (connect6/ai/_csearch.pyx), compiled beside the mypyc modules when its
# source is in the tree.
KERNEL = "_csearch"
HAS_KERNEL = (PACKAGE / "ai" / f"{KERNEL}.pyx").exists()
EXPECTED = os.environ.get("CONNECT6_EXPECT_COMPILED") == "1"
MAX_DEPTH = 2  # two-stone plies: fixed, so the answer does not depend on the machine's speed
BUDGET_S = 600.0  # never reached at that depth: no phase is cut by the clock
# (game index in the Little Golem records, turns played): positions where the search runs its full
# depth (not a win found at once): shapes, blocks, defences against a forced attack.
CASES = ((1, 6), (12, 11), (13, 17), (19, 8), (20, 8), (21, 5))

# Runs in the subprocess, with the pure copy of the package first on the path.
PURE_RUNNER = """
import importlib.util, json, random, sys
import connect6.ai.board
assert connect6.ai.board.__file__.endswith(".py"), connect6.ai.board.__file__
assert importlib.util.find_spec("connect6.ai._csearch") is None, "the kernel's module is in the pure copy"
from connect6.ai import search
from connect6.rules import Position
out = []
for case in json.load(sys.stdin):
    r = search(Position.from_turns(case["turns"], case["size"]), case["level"], budget_s=case["budget"],
               rng=random.Random(case["seed"]), max_depth=case["depth"])
    out.append([list(r.stones), r.reason, r.score, r.depth, r.nodes, connect6.ai.board.__file__])
json.dump(out, sys.stdout)
"""


def _compiled() -> dict[str, str]:
    return {name: importlib.import_module(f"connect6.ai.{name}").__file__ or "" for name in ENGINE_MODULES}


def _cases() -> list[dict]:
    games = load_games(LITTLE_GOLEM, limit=max(g for g, _ in CASES) + 1)
    out = []
    for game, turns in CASES:
        _, size, record = games[game]
        position = Position.from_turns(record[:turns], size)
        assert not position.is_over
        for level in LEVELS:
            out.append({"turns": record[:turns], "size": size, "level": level, "seed": game * 10 + turns,
                        "budget": BUDGET_S, "depth": MAX_DEPTH})
    return out


def test_the_suite_runs_the_compiled_engine_when_make_test_built_it() -> None:
    files = _compiled()
    if not EXPECTED:
        pytest.skip("CONNECT6_EXPECT_COMPILED is not set (make test sets it after `make compile`)")
    # Then every hot module is the extension module, not its source
    assert all(f.endswith((".so", ".pyd")) for f in files.values()), (
        f"make test expected the compiled engine, but it imports {files}: did `make compile` fail?")
    # and so is the C search kernel, when the tree has its source (it has no pure-Python module of its
    # own: without the extension module it cannot be imported)
    if HAS_KERNEL:
        try:
            kernel = importlib.import_module(f"connect6.ai.{KERNEL}").__file__ or ""
        except ImportError as e:
            pytest.fail(f"make test expected the compiled C search kernel, but it does not import ({e}): "
                        "did `make compile` fail (is Cython installed)?")
        assert kernel.endswith((".so", ".pyd")), kernel


def _other_python() -> str | None:
    """A Python of another minor version than this one (Lambda's 3.12 first), if the machine has one."""
    pyenv = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    for version in ("3.12", "3.13", "3.11"):
        candidates = [*sorted(glob.glob(f"{pyenv}/versions/{version}.*/bin/python{version}"), reverse=True),
                      shutil.which(f"python{version}")]
        for found in candidates:
            if found is None:
                continue
            probe = subprocess.run([found, "-c", "import sys; print(sys.version_info[:2])"],
                                   capture_output=True, text=True, check=False)
            if probe.returncode == 0 and probe.stdout.strip() == str(tuple(map(int, version.split(".")))) \
                    and version != f"{sys.version_info.major}.{sys.version_info.minor}":
                return found
    return None


def test_another_python_ignores_the_compiled_modules_and_plays_pure(tmp_path: Path) -> None:
    files = _compiled()
    if not all(f.endswith((".so", ".pyd")) for f in files.values()):
        pytest.skip("the engine is not compiled here (run `make compile`)")
    other = _other_python()
    if other is None:
        pytest.skip("no Python of another version on this machine")
    # Given the layer as it is here, with modules compiled for this Python beside the sources
    # When another Python (Lambda's 3.12) imports it and plays a move
    script = ("import importlib.util, json, connect6.ai.board as b; from connect6.ai import search; "
              "from connect6.rules import Position; p = Position(19); p.play([180]); "
              "r = search(p, 'hard', budget_s=0.2); "
              "kernel = importlib.util.find_spec('connect6.ai._csearch'); "
              "print(json.dumps([b.__file__, r.stones, r.nodes, kernel and kernel.origin]))")
    run = subprocess.run([other, "-s", "-c", script], capture_output=True, text=True, cwd=tmp_path,
                         env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(PACKAGE.parent)},
                         check=False)
    # Then it imports the pure-Python sources (and finds no C search kernel built for it) and answers
    # with two stones
    assert run.returncode == 0, run.stderr
    module, move, nodes, kernel = json.loads(run.stdout)
    assert module == str(PACKAGE / "ai" / "board.py")
    assert kernel is None
    assert len(set(move)) == 2 and nodes > 0


@pytest.mark.slow
def test_compiled_and_pure_engines_play_the_same_moves(tmp_path: Path) -> None:
    files = _compiled()
    if not all(f.endswith((".so", ".pyd")) for f in files.values()):
        if EXPECTED:
            pytest.fail(f"the compiled engine is missing ({files}): did `make compile` fail?")
        pytest.skip("the engine is not compiled here (run `make compile`): nothing to compare")
    # Given the package copied without its extension modules (the pure engine, as Lambda runs it)
    pure = tmp_path / "layer"
    shutil.copytree(PACKAGE, pure / "connect6",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    cases = _cases()
    # When both engines answer the same positions at a fixed depth
    env = {**os.environ, "PYTHONPATH": str(pure)}
    run = subprocess.run([sys.executable, "-c", PURE_RUNNER], input=json.dumps(cases), capture_output=True,
                         text=True, env=env, cwd=tmp_path, check=False)
    assert run.returncode == 0, run.stderr
    pure_results = json.loads(run.stdout)
    assert {r[5] for r in pure_results} == {str(pure / "connect6" / "ai" / "board.py")}
    for case, expected in zip(cases, pure_results, strict=True):
        r = search(Position.from_turns(case["turns"], case["size"]), case["level"], budget_s=case["budget"],
                   rng=random.Random(case["seed"]), max_depth=case["depth"])
        # Then they agree on everything but the time: the same move, found by the same tree
        assert [list(r.stones), r.reason, r.score, r.depth, r.nodes] == expected[:5], case
