"""The handlers' import time (a Lambda cold start's own share) beside a bare baseline, in one run.

Each case is a fresh ``python -c "import …"`` (bytecode already compiled, as a warm file cache),
timed from start to exit; the cases take turns, so a busy machine slows them alike. It prints the
median and the fastest of ``--runs`` per case and each handler's median less the baseline's:

- ``python -c pass``: the interpreter alone;
- ``baseline``: what any handler of this design needs at least: Powertools' event handler, logging
  and metrics, pydantic and boto3;
- each handler (``functions/<name>/<name>_handler.py``) with the template's settings absent (their
  defaults), outside Lambda: no X-Ray SDK (``connect6.api.observability.LazyTracer``);
- with ``--lambda``, the move handler as in Lambda with tracing on (``LAMBDA_TASK_ROOT`` set):
  Powertools' Tracer and the X-Ray SDK are imported and boto3 is instrumented;
- with ``--before REV``, the move handler of that git revision too (its layer and handlers, from
  ``git archive``, first on the path), for a before/after in one run.

    .venv/bin/python -m tools.lab.bench_cold_start [--runs 9] [--lambda] [--before REV] [--handlers move,join]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BASELINE = ("import aws_lambda_powertools.event_handler, aws_lambda_powertools.logging, "
            "aws_lambda_powertools.metrics, pydantic, boto3")
HANDLERS = ("move", "join", "board", "recap", "expire_invites", "publish_events")


def case_env(function: str | None, in_lambda: bool, tree: Path | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("AWS_", "POWERTOOLS_", "LAMBDA_", "_X_AMZN")) and k != "PYTHONPATH"}
    env["AWS_DEFAULT_REGION"] = "us-east-1"
    if function:
        paths = [(tree or ROOT) / "functions" / function] + ([tree / "layers" / "connect6"] if tree else [])
        env["PYTHONPATH"] = os.pathsep.join(str(p) for p in paths)
    if in_lambda:
        env.update(LAMBDA_TASK_ROOT=str(ROOT / "functions" / (function or "")),
                   AWS_XRAY_CONTEXT_MISSING="IGNORE_ERROR")
    return env


def checkout(rev: str, into: Path) -> Path:
    """The layer and the handlers of ``rev``, unpacked under ``into``."""
    archive = into / "tree.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "archive", rev, "layers/connect6/connect6", "functions"], cwd=ROOT, check=True,
                       stdout=out)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into


def cases(handlers: list[str], in_lambda: bool) -> list[tuple[str, str, dict[str, str]]]:
    found = [("python -c pass", "pass", case_env(None, False)),
             ("baseline (event handler, logging, metrics, pydantic, boto3)", BASELINE, case_env(None, False))]
    found += [(f"{name} handler", f"import {name}_handler", case_env(name, False)) for name in handlers]
    if in_lambda:
        found.append(("move handler, in Lambda with tracing (X-Ray SDK)", "import move_handler",
                      case_env("move", True)))
    return found


def once(code: str, env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--handlers", default="move", help=f"comma-separated, of {', '.join(HANDLERS)}")
    parser.add_argument("--lambda", dest="in_lambda", action="store_true",
                        help="also the move handler as in Lambda with tracing on")
    parser.add_argument("--before", metavar="REV", help="also the move handler of this git revision")
    args = parser.parse_args(argv)
    handlers = [h.strip() for h in args.handlers.split(",") if h.strip()]
    unknown = set(handlers) - set(HANDLERS)
    if unknown:
        parser.error(f"no such handler: {', '.join(sorted(unknown))}")
    todo = cases(handlers, args.in_lambda)
    scratch = tempfile.TemporaryDirectory(prefix="bench_cold_start-")
    if args.before:
        tree = checkout(args.before, Path(scratch.name))
        todo.append((f"move handler at {args.before}", "import move_handler, connect6; "
                     f"assert connect6.__file__.startswith({str(tree)!r})", case_env("move", False, tree)))
    for _, code, env in todo:  # compile and cache once, untimed
        once(code, env)
    times: dict[str, list[float]] = {label: [] for label, _, _ in todo}
    for _ in range(args.runs):
        for label, code, env in todo:
            times[label].append(once(code, env))
    base = statistics.median(times[todo[1][0]])
    print(f"import time, fresh interpreter each, median of {args.runs} (python {sys.version.split()[0]})")
    print(f"{'case':<62} {'median s':>9} {'fastest s':>10} {'vs baseline':>12}")
    for label, _, _ in todo:
        median = statistics.median(times[label])
        extra = "" if label.startswith(("python", "baseline")) else f"{(median - base) * 1000:+.0f} ms"
        print(f"{label:<62} {median:>9.3f} {min(times[label]):>10.3f} {extra:>12}")
    scratch.cleanup()


if __name__ == "__main__":
    main()
