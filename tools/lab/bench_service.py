"""Handler time of a move, with and without the computer's reply, on moto (in-process).

Drives the move function exactly as API Gateway would (events built from template.yaml's routes,
the table built from its definition) and times ``lambda_handler`` alone: request parsing and
validation, the game load, the rules, the computer's search when it replies, the conditional
write, the event publication, the response. moto stands in for DynamoDB and EventBridge, so the
figures leave out network latency to real DynamoDB (single-digit milliseconds per call in-region).

    .venv/bin/python -m tools.lab.bench_service                      # defaults below
    .venv/bin/python -m tools.lab.bench_service --moves 300 --computer-moves 80 --level normal
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from tools.lab.timing import percentile
from tools.local.samlocal import REGION, Service, build_event, to_http

ROOT = Path(__file__).resolve().parents[2]

def _call(service: Service, method: str, path: str, body: Any = None) -> tuple[int, Any, float]:
    """(status, JSON body, seconds in ``lambda_handler``) of one request, routed as API Gateway would."""
    found = service.match(method, path)
    if found is None:
        raise SystemExit(f"no route for {method} {path}")
    route, params = found
    event = build_event(method=method, target=path, headers=[("content-type", "application/json")],
                        body=b"" if body is None else json.dumps(body).encode(), route=route,
                        params=params, source_ip="127.0.0.1")
    started = time.perf_counter()
    result = service.invoke(route.function, event)
    elapsed = time.perf_counter() - started
    status, _headers, payload = to_http(result)
    return status, json.loads(payload or b"null"), elapsed


def _random_stones(sheet: dict[str, Any], rng: random.Random) -> list[str]:
    """Legal stones near the middle of the action (empty points, the right count)."""
    from connect6.records import point_label

    size = sheet["board_size"]
    empty = [(size - 1 - r) * size + c for r, row in enumerate(sheet["board"]) for c, ch in enumerate(row)
             if ch == "."]
    centre = [p for p in empty if abs(p % size - size // 2) <= 4 and abs(p // size - size // 2) <= 4]
    pool = centre if len(centre) >= sheet["stones_to_place"] else empty
    return [point_label(p, size) for p in rng.sample(pool, sheet["stones_to_place"])]


def _report(label: str, samples: list[float]) -> None:
    ms = [s * 1000 for s in samples]
    print(f"{label:<34} n={len(ms):<4} median={statistics.median(ms):8.2f} ms   "
          f"p99={percentile(ms, 0.99):8.2f} ms   mean={statistics.fmean(ms):8.2f} ms   "
          f"max={max(ms):8.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=300, help="timed moves without a computer reply")
    parser.add_argument("--computer-moves", type=int, default=60, help="timed moves with a computer reply")
    parser.add_argument("--level", default="normal", choices=["easy", "normal", "hard"])
    parser.add_argument("--budget", default="",
                        help="computer budget in seconds (empty: the level's default)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name in ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL_EVENTBRIDGE"):
        os.environ.pop(name, None)
    os.environ.update({
        "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_SESSION_TOKEN": "testing",
        "AWS_DEFAULT_REGION": REGION, "AWS_REGION": REGION, "POWERTOOLS_TRACE_DISABLED": "true",
    })
    service = Service(ROOT / "template.yaml",
                      env_overrides={"POWERTOOLS_LOG_LEVEL": "ERROR", "COMPUTER_BUDGET_S": args.budget})

    from moto import mock_aws

    rng = random.Random(args.seed)
    # The handlers print their metrics (EMF) to stdout, as in Lambda: that cost stays in the
    # timing, the text goes nowhere.
    with mock_aws(), open(os.environ.get("BENCH_HANDLER_OUTPUT", os.devnull), "w") as sink, \
            contextlib.redirect_stdout(sink):
        service.create_resources()
        service.load_functions()
        from connect6.api import runtime

        runtime.configure(colour_draw=lambda game: 1)
        # Warm up: imports, first clients, first search tables (a cold start is not a move's cost)
        _play(service, rng, "warm-h", None, 4)
        _play(service, rng, "warm-c", "easy", 2)
        human = _play(service, rng, "h", None, args.moves)
        computer = _play(service, rng, "c", args.level, args.computer_moves)
    print(f"move handler time on moto, Python {sys.version.split()[0]}, level={args.level}, "
          f"budget={args.budget or 'level default'}")
    _report("move, no computer reply", human)
    _report(f"move + computer reply ({args.level})", computer)


def _play(service: Service, rng: random.Random, prefix: str, level: str | None, moves: int) -> list[float]:
    """Play games (starting new ones as they end) until ``moves`` moves were timed."""
    times: list[float] = []
    game_no = 0
    while len(times) < moves:
        game_no += 1
        run = f"/v1/games/bench-{prefix}-{game_no}-{time.monotonic_ns()}"
        _call(service, "PUT", run, {"game_name": "Bench", "allow_computer_opponents": True})
        first: dict[str, Any] = {"name": "Ana", "email": "ana@example.com"}
        if level is not None:
            first["opponent"] = {"kind": "computer", "level": level}
        players = [_call(service, "POST", f"{run}/players", first)[1]["player_id"]]
        if level is None:
            ben = _call(service, "POST", f"{run}/players", {"name": "Ben", "email": "ben@example.com"})
            players.append(ben[1]["player_id"])
        while len(times) < moves:
            sheets = [_call(service, "GET", f"{run}/players/{p}/move-sheet")[1] for p in players]
            sheet = next((s for s in sheets if s["your_turn"]), None)
            if sheet is None:
                break  # the game is over
            status, reply, elapsed = _call(service, "POST", f"{run}/players/{sheet['player_id']}/moves",
                                           {"move_number": sheet["move_number"],
                                            "stones": _random_stones(sheet, rng)})
            if status != 200:
                raise SystemExit(f"unexpected {status}: {reply}")
            times.append(elapsed)
            if reply["status"] != "in_progress":
                break
    return times


if __name__ == "__main__":
    main()
