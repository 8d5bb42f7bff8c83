"""The layer as `sam build` builds it (template.yaml: EngineLayer, BuildMethod makefile, so
layers/connect6/Makefile's build-EngineLayer) works under Python 3.12, the Lambda runtime, not just
under the 3.11 the tests run on: the engine's hot modules compiled for 3.12 load and play, every
handler imports with only its code and the layer on the path, and a machine that cannot compile
still builds a layer, with the pure engine."""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cfnlint.decode import decode

from compile_engine import GROUP, LAMBDA_GLIBC, MODULES, glibc_needs

ROOT = Path(__file__).resolve().parents[2]
LAYER_SOURCE = ROOT / "layers" / "connect6"
EXT_312 = ".cpython-312-x86_64-linux-gnu.so"


def _python312() -> str | None:
    pyenv_root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    candidates = sorted(glob.glob(f"{pyenv_root}/versions/3.12.*/bin/python3.12"), reverse=True)
    found = shutil.which("python3.12")
    if found:
        candidates.append(found)
    for candidate in candidates:
        probe = subprocess.run([candidate, "--version"], capture_output=True, text=True, check=False)
        if probe.returncode == 0 and probe.stdout.startswith("Python 3.12"):
            return candidate
    return None


def _can_compile(python: str | None) -> bool:
    """A C compiler and that Python's headers: what compile_engine.py --lambda needs besides mypyc."""
    if python is None or (shutil.which("cc") is None and shutil.which("gcc") is None):
        return False
    probe = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['include'])"],
                           capture_output=True, text=True, check=False)
    return probe.returncode == 0 and (Path(probe.stdout.strip()) / "Python.h").exists()


PYTHON312 = _python312()
MAKE = shutil.which("make")
CAN_COMPILE = _can_compile(PYTHON312)
needs_312 = pytest.mark.skipif(PYTHON312 is None or MAKE is None, reason="no Python 3.12 or no make here")
needs_cc = pytest.mark.skipif(not CAN_COMPILE, reason="no C compiler or no Python 3.12 headers here")

# Run by Python 3.12 with only the built layer on the path: which files the engine modules come
# from, and a move of the hard level after the opening, checked legal by the rules.
PLAY = """
import importlib, json, sys
from connect6.ai import choose_move
from connect6.rules import Position
files = [importlib.import_module(f"connect6.ai.{name}").__file__ for name in sys.argv[1:]]
p = Position(19)
p.play([180])
move = choose_move(p, "hard", budget_s=0.5)
result = p.play(list(move))
print(json.dumps({"files": files, "move": list(move), "turn": result.turn_number, "version": sys.version}))
"""


Run = subprocess.CompletedProcess[str]


def _build_layer(tmp: Path, env: dict[str, str] | None = None) -> tuple[Path, Run]:
    """``make build-EngineLayer`` the way sam build runs it: in a copy of the layer's folder (with a
    stale 3.11 module and a __pycache__ planted, as a developer's checkout has them), ARTIFACTS_DIR
    set, the Makefile named explicitly."""
    assert PYTHON312 is not None and MAKE is not None
    source = tmp / "source"
    shutil.copytree(LAYER_SOURCE, source, ignore=shutil.ignore_patterns(".aws-sam", ".git", "*.egg-info"))
    (source / "connect6" / "ai" / "board.cpython-311-x86_64-linux-gnu.so").write_bytes(b"not for 3.12")
    (source / "connect6" / "rules" / "__pycache__").mkdir(exist_ok=True)
    (source / "connect6" / "rules" / "__pycache__" / "stale.cpython-311.pyc").write_bytes(b"")
    artifacts = tmp / "artifacts"
    run = subprocess.run(
        [MAKE, "--makefile", str(source / "Makefile"), "build-EngineLayer", f"LAMBDA_PYTHON={PYTHON312}"],
        cwd=source, env={**(env or os.environ), "ARTIFACTS_DIR": str(artifacts)},
        capture_output=True, text=True, check=False, timeout=900,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return artifacts / "python", run


def _play(layer: Path, cwd: Path) -> dict:
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(layer)}
    run = subprocess.run([str(PYTHON312), "-s", "-B", "-c", PLAY, *MODULES], capture_output=True, text=True,
                         cwd=cwd, env=env, check=False)
    assert run.returncode == 0, run.stderr
    return dict(json.loads(run.stdout))


@pytest.fixture(scope="module")
def built_layer(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Run]:
    return _build_layer(tmp_path_factory.mktemp("engine-layer"))


def _layout_is_lambdas(layer: Path) -> None:
    # python/<dependencies + the connect6 package>, Lambda's wheels, nothing for another Python
    assert (layer / "connect6" / "ai" / "board.py").is_file()
    assert (layer / "pydantic_core").is_dir() and (layer / "aws_lambda_powertools").is_dir()
    assert list((layer / "pydantic_core").glob(f"*{EXT_312}")), "pydantic-core's wheel is not Lambda's"
    assert not [p for p in layer.rglob("*.so") if not p.name.endswith(EXT_312)]
    assert not list(layer.rglob("__pycache__")) and not list(layer.rglob("*.part"))
    assert not (layer / "bin").exists() and not (layer / "compile_engine.py").exists()


@pytest.mark.slow
@needs_312
@needs_cc
def test_the_layer_build_ships_the_engine_compiled_for_python_312(
    built_layer: tuple[Path, Run], tmp_path: Path
) -> None:
    # Given the layer built by the Makefile on a machine that can compile
    layer, run = built_layer
    _layout_is_lambdas(layer)
    ai = layer / "connect6" / "ai"
    # Then the four hot modules and their shared library are there, compiled for 3.12 only
    expected = {f"{name}{EXT_312}" for name in (*MODULES, GROUP.rpartition(".")[2] + "__mypyc")}
    assert {p.name for p in ai.glob("*.so")} == expected
    # and ask for no glibc newer than Lambda's
    assert max(glibc_needs(p) for p in ai.glob("*.so")) <= LAMBDA_GLIBC
    assert "the compiled modules load and play" in run.stdout
    # When Python 3.12 with only the layer on the path imports the engine and plays
    played = _play(layer, tmp_path)
    # Then it runs the compiled modules (mypyc's __file__ names the extension module) and makes a legal turn
    assert played["version"].startswith("3.12")
    assert all(f.endswith(EXT_312) for f in played["files"]), played["files"]
    assert played["turn"] == 2 and len(set(played["move"])) == 2


@pytest.mark.slow
@needs_312
def test_layer_and_handlers_import_under_python_312(
    built_layer: tuple[Path, Run], tmp_path: Path
) -> None:
    layer, _ = built_layer
    template, _ = decode(str(ROOT / "template.yaml"))
    assert template is not None
    engine_layer = template["Resources"]["EngineLayer"]
    # Given the template builds the layer with its folder's Makefile, for Lambda's Python 3.12
    assert engine_layer["Metadata"]["BuildMethod"] == "makefile"
    assert Path(ROOT / engine_layer["Properties"]["ContentUri"]) == LAYER_SOURCE
    assert "build-EngineLayer:" in (LAYER_SOURCE / "Makefile").read_text()
    assert engine_layer["Properties"]["CompatibleRuntimes"] == [template["Globals"]["Function"]["Runtime"]]
    globals_ = template.get("Globals", {}).get("Function", {})
    env_vars = dict(globals_.get("Environment", {}).get("Variables", {}))
    # When each function's code is imported with only its CodeUri and the layer on the path
    for name, resource in template["Resources"].items():
        if resource["Type"] != "AWS::Serverless::Function":
            continue
        props = resource["Properties"]
        module_name = props.get("Handler", globals_.get("Handler")).rpartition(".")[0]
        code_dir = ROOT / props.get("CodeUri", globals_.get("CodeUri"))
        env = {k: v if isinstance(v, str) else f"{k.lower()}-local" for k, v in
               {**env_vars, **props.get("Environment", {}).get("Variables", {})}.items()}
        env.update(PYTHONPATH=f"{code_dir}{os.pathsep}{layer}", AWS_DEFAULT_REGION="us-east-1",
                   PATH=os.environ.get("PATH", ""), PYTHONNOUSERSITE="1")
        result = subprocess.run(
            [str(PYTHON312), "-s", "-B", "-c", f"import {module_name}, sys; print(sys.version_info[:2])"],
            capture_output=True, text=True, env=env, cwd=tmp_path, check=False,
        )
        # Then it imports cleanly on 3.12
        assert result.returncode == 0, f"{name}: {result.stderr}"
        assert result.stdout.strip() == "(3, 12)"


def _path_without_a_c_compiler(tmp: Path) -> str:
    """A PATH with only what the Makefile's recipe runs besides Python (rm, cp, find)."""
    bin_dir = tmp / "bin"
    bin_dir.mkdir()
    for tool in ("rm", "cp", "find"):
        found = shutil.which(tool)
        assert found is not None, tool
        (bin_dir / tool).symlink_to(found)
    return str(bin_dir)


@pytest.mark.slow
@needs_312
def test_without_a_c_compiler_the_layer_build_ships_the_pure_engine(tmp_path: Path) -> None:
    # Given a build machine with no C compiler on PATH
    env = {**os.environ, "PATH": _path_without_a_c_compiler(tmp_path)}
    env.pop("CC", None)
    # When the layer is built
    layer, run = _build_layer(tmp_path, env)
    # Then the build succeeds with a warning, and the layer carries no extension module of its own
    assert "warning: no C compiler; the engine stays pure Python" in run.stderr
    _layout_is_lambdas(layer)
    assert not list((layer / "connect6").rglob("*.so"))
    # and Python 3.12 plays with the pure-Python sources
    played = _play(layer, tmp_path)
    assert played["files"] == [str(layer / "connect6" / "ai" / f"{name}.py") for name in MODULES]
    assert played["turn"] == 2 and len(set(played["move"])) == 2


@pytest.mark.slow
@needs_312
@needs_cc
def test_when_mypyc_cannot_be_installed_the_lambda_build_keeps_the_pure_engine(tmp_path: Path) -> None:
    assert PYTHON312 is not None
    # Given the package alone and a Python 3.12 without mypy whose pip can reach no index at all
    probe = subprocess.run([PYTHON312, "-s", "-c", "import mypyc"], capture_output=True, check=False)
    if probe.returncode == 0:
        pytest.skip(f"{PYTHON312} has mypyc installed: nothing to install")
    layer = tmp_path / "python"
    shutil.copytree(LAYER_SOURCE / "connect6", layer / "connect6",
                    ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    env = {"PATH": os.environ.get("PATH", ""), "PIP_CONFIG_FILE": os.devnull, "PIP_NO_INDEX": "1",
           "PIP_FIND_LINKS": "", "PYTHONNOUSERSITE": "1"}
    command = [PYTHON312, "-s", str(LAYER_SOURCE / "compile_engine.py"), "--lambda", "--layer", str(layer)]
    # When compile_engine.py --lambda runs on it
    run = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path, check=False,
                         timeout=300)
    # Then it warns and exits 0, and the package plays pure
    assert run.returncode == 0, run.stderr
    assert "warning: could not install mypyc" in run.stderr
    assert not list(layer.rglob("*.so"))
    played = _play(layer, tmp_path)
    assert played["files"] == [str(layer / "connect6" / "ai" / f"{name}.py") for name in MODULES]
    # and --strict turns the same into a failure
    strict = subprocess.run([*command, "--strict"], capture_output=True, text=True, env=env, cwd=tmp_path,
                            check=False, timeout=300)
    assert strict.returncode == 1 and "error: could not install mypyc" in strict.stderr


def test_the_compile_script_runs_from_tools_and_from_the_layer() -> None:
    # The command stays tools/compile_engine.py; the script sam build runs is the layer's
    for script in (ROOT / "tools" / "compile_engine.py", LAYER_SOURCE / "compile_engine.py"):
        run = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True,
                             cwd=ROOT, check=False)
        assert run.returncode == 0, run.stderr
        assert "--lambda" in run.stdout
