"""No dead names in the shipped code (the layer and the handlers).

vulture reads the layer, the handlers, tools/ and tests/ together, so a name used only by a tool or
a test counts as used; what it still finds unused in the layer or a handler is an error, except the
names below, each kept on purpose.
"""

from __future__ import annotations

from pathlib import Path

import vulture

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = (ROOT / "layers" / "connect6" / "connect6", ROOT / "functions")

# Names vulture cannot see used: framework hooks, callback signatures, serialized fields.
IGNORE_NAMES = [
    "model_config",  # pydantic reads it
    "lambda_handler",  # the template names it
]
# A route function is called by the resolver its router is included in, never by name.
IGNORE_DECORATORS = ["@app.exception_handler", "@field_validator", "@router.*"]
# (file relative to the repository, name): kept on purpose.
KEPT = {
    # Overrides Powertools' property of the same name.
    ("layers/connect6/connect6/api/hostile.py", "json_body"),
    # Powertools calls the replay hook with this keyword.
    ("layers/connect6/connect6/api/idempotency.py", "idempotent_data"),
    # Part of the rules library's small public surface (points, colours).
    ("layers/connect6/connect6/rules/position.py", "letter"),
    ("layers/connect6/connect6/rules/position.py", "coords"),
    ("layers/connect6/connect6/rules/position.py", "full_mask"),
}
# The request and response models' fields are the wire format: serialized by name, not all read in Python.
FIELDS_OF = {"layers/connect6/connect6/api/models.py", "layers/connect6/connect6/game/shapes.py"}


def _unused() -> list[str]:
    scan = vulture.Vulture(ignore_names=IGNORE_NAMES, ignore_decorators=IGNORE_DECORATORS)
    scan.scavenge([str(p) for p in (*SHIPPED, ROOT / "tools", ROOT / "tests")])
    found = []
    for item in scan.get_unused_code(min_confidence=60):
        path = Path(item.filename).resolve()
        if not any(path.is_relative_to(s) for s in SHIPPED):
            continue
        rel = path.relative_to(ROOT).as_posix()
        if (rel, item.name) in KEPT or (rel in FIELDS_OF and item.typ == "variable"):
            continue
        found.append(f"{rel}:{item.first_lineno}: unused {item.typ} {item.name!r}")
    return found


def test_the_shipped_code_has_no_dead_names():
    assert _unused() == []


def test_the_kept_names_still_exist():
    # A kept name that was since removed or renamed must leave the list too.
    for rel, name in KEPT:
        assert name in (ROOT / rel).read_text(), (rel, name)
