"""The layer and every handler, packaged as SAM packages them, import under Python 3.12 (the
Lambda runtime in template.yaml), not just under the 3.11 the tests run on."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from cfnlint.decode import decode

ROOT = Path(__file__).resolve().parents[2]


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


PYTHON312 = _python312()


@pytest.mark.slow
@pytest.mark.skipif(PYTHON312 is None, reason="no Python 3.12 on this machine")
def test_layer_and_handlers_import_under_python_312(tmp_path: Path) -> None:
    assert PYTHON312 is not None
    # Given the layer built the way SAM's python3.12 build method lays it out: python/<deps + package>
    layer = tmp_path / "layer" / "python"
    subprocess.run(
        [PYTHON312, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--target", str(layer),
         "-r", str(ROOT / "layers/connect6/requirements.txt")],
        check=True,
    )
    shutil.copytree(ROOT / "layers/connect6/connect6", layer / "connect6")
    template, _ = decode(str(ROOT / "template.yaml"))
    assert template is not None
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
            [PYTHON312, "-s", "-c", f"import {module_name}, sys; print(sys.version_info[:2])"],
            capture_output=True, text=True, env=env, cwd=tmp_path, check=False,
        )
        # Then it imports cleanly on 3.12
        assert result.returncode == 0, f"{name}: {result.stderr}"
        assert result.stdout.strip() == "(3, 12)"
