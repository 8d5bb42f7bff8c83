"""The responses are types end to end: the domain builds the models of ``connect6.game.shapes``,
the routes send them and the pages read their attributes, all checked by mypy with the pydantic
plugin. So renaming a field on one side is a type error on the other, not a page that quietly
shows nothing (as the accepted-invitation page once did, reading fields its input never had)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Where each renamed field is built or read: the domain, a page, a route.
CHECKED = ["layers/connect6/connect6/game/views.py", "layers/connect6/connect6/pages/html.py",
           "layers/connect6/connect6/api/routes/moves.py"]


def _copy_of_the_project(into: Path) -> None:
    shutil.copytree(ROOT / "layers" / "connect6" / "connect6", into / "layers" / "connect6" / "connect6",
                    ignore=shutil.ignore_patterns("__pycache__", "*.json", "static"))
    shutil.copytree(ROOT / "functions", into / "functions", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", into / "pyproject.toml")


def _rename(shapes: Path, model: str, field: str, new: str) -> None:
    """Rename ``field`` in the class ``model`` only (other models may have a field of that name)."""
    text = shapes.read_text()
    start = text.index(f"class {model}(")
    end = text.find("\nclass ", start + 1)
    body = text[start:end]
    renamed, count = re.subn(rf"^    {field}:", f"    {new}:", body, flags=re.MULTILINE)
    assert count == 1, (model, field)
    shapes.write_text(text[:start] + renamed + text[end:])


def _mypy(project: Path) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(project / ".mypy_cache"), *CHECKED],
        cwd=project, capture_output=True, text=True, timeout=600, check=False)
    return [line for line in done.stdout.splitlines() if ": error:" in line]


@pytest.mark.slow
def test_a_renamed_response_field_is_a_type_error_where_it_is_built_and_used(tmp_path: Path) -> None:
    # Given a copy of the layer and the handlers, which mypy passes as it is
    _copy_of_the_project(tmp_path)
    assert _mypy(tmp_path) == []
    # When the game view's move_count and the move response's computer_reply are renamed
    shapes = tmp_path / "layers" / "connect6" / "connect6" / "game" / "shapes.py"
    _rename(shapes, "GameView", "move_count", "moves_played")
    _rename(shapes, "MoveResponse", "computer_reply", "reply")
    errors = _mypy(tmp_path)
    # Then mypy reports each where the domain builds it and where a page or a route reads it
    def at(path: str, *words: str) -> bool:
        return any(line.startswith(path) and all(w in line for w in words) for line in errors)

    assert at("layers/connect6/connect6/game/views.py", '"move_count"', '"GameView"'), errors
    assert at("layers/connect6/connect6/game/views.py", '"computer_reply"', '"MoveResponse"'), errors
    assert at("layers/connect6/connect6/pages/html.py", '"GameView" has no attribute "move_count"'), errors
    assert at("layers/connect6/connect6/api/routes/moves.py",
              '"MoveResponse" has no attribute "computer_reply"'), errors
