"""Handler time of a move, with and without the computer's reply, on moto (in-process).

Drives the move function exactly as API Gateway would (events built from template.yaml's routes,
the table built from its definition) and times ``lambda_handler`` alone: request parsing and
validation, the game load, the rules, the computer's search when it replies, the conditional
write, the event publication, the response. moto stands in for DynamoDB and EventBridge, so the
figures leave out network latency to real DynamoDB (single-digit milliseconds per call in-region).

    .venv/bin/python tools/bench_service.py                      # defaults below
    .venv/bin/python tools/bench_service.py --moves 300 --computer-moves 80 --level normal
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "layers" / "connect6")]


def _environment(budget: str) -> None:
    from tests.integration.harness import REGION, function_environment

    os.environ.update(function_environment())
    os.environ.update({
        "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_SESSION_TOKEN": "testing",
        "AWS_DEFAULT_REGION": REGION, "AWS_REGION": REGION, "POWERTOOLS_TRACE_DISABLED": "true",
        "POWERTOOLS_LOG_LEVEL": "ERROR", "COMPUTER_BUDGET_S": budget,
    })
    for name in ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL_EVENTBRIDGE"):
        os.environ.pop(name, None)


def _random_stones(sheet: dict[str, Any], rng: random.Random) -> list[str]:
    """Legal stones near the middle of the action (empty points, the right count)."""
    from connect6.records import point_label

    size = sheet["board_size"]
    empty = [(size - 1 - r) * size + c for r, row in enumerate(sheet["board"]) for c, ch in enumerate(row)
             if ch == "."]
    centre = [p for p in empty if abs(p % size - size // 2) <= 4 and abs(p // size - size // 2) <= 4]
    pool = centre if len(centre) >= sheet["stones_to_place"] else empty
    return [point_label(p, size) for p in rng.sample(pool, sheet["stones_to_place"])]


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def _report(label: str, samples: list[float]) -> None:
    ms = [s * 1000 for s in samples]
    print(f"{label:<34} n={len(ms):<4} median={statistics.median(ms):8.2f} ms   "
          f"p99={_percentile(ms, 0.99):8.2f} ms   mean={statistics.fmean(ms):8.2f} ms   "
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
    _environment(args.budget)

    import boto3
    from moto import mock_aws

    from connect6.api import runtime
    from tests.integration.harness import REGION, TEST_BUS, Api, create_table

    rng = random.Random(args.seed)
    # The handlers print their metrics (EMF) to stdout, as in Lambda: that cost stays in the
    # timing, the text goes nowhere.
    with mock_aws(), open(os.environ.get("BENCH_HANDLER_OUTPUT", os.devnull), "w") as sink, \
            contextlib.redirect_stdout(sink):
        create_table(boto3.client("dynamodb", region_name=REGION))
        boto3.client("events", region_name=REGION).create_event_bus(Name=TEST_BUS)
        runtime.configure(colour_draw=lambda game: 1)
        api = Api()
        # Warm up: imports, first clients, first search tables (a cold start is not a move's cost)
        _play(api, rng, "warm-h", None, 4)
        _play(api, rng, "warm-c", "easy", 2)
        api.calls.clear()
        human = _play(api, rng, "h", None, args.moves)
        computer = _play(api, rng, "c", args.level, args.computer_moves)
    print(f"move handler time on moto, Python {sys.version.split()[0]}, level={args.level}, "
          f"budget={args.budget or 'level default'}")
    _report("move, no computer reply", human)
    _report(f"move + computer reply ({args.level})", computer)


def _play(api: Any, rng: random.Random, prefix: str, level: str | None, moves: int) -> list[float]:
    """Play games (starting new ones as they end) until ``moves`` moves were timed."""
    times: list[float] = []
    game_no = 0
    while len(times) < moves:
        game_no += 1
        run = f"/v1/games/bench-{prefix}-{game_no}-{time.monotonic_ns()}"
        api.put(run, {"game_name": "Bench", "allow_computer_opponents": True})
        first: dict[str, Any] = {"name": "Ana", "email": "ana@example.com"}
        if level is not None:
            first["opponent"] = {"kind": "computer", "level": level}
        players = [api.post(f"{run}/players", first).json["player_id"]]
        if level is None:
            ben = api.post(f"{run}/players", {"name": "Ben", "email": "ben@example.com"})
            players.append(ben.json["player_id"])
        while len(times) < moves:
            sheets = [api.get(f"{run}/players/{p}/move-sheet").json for p in players]
            sheet = next((s for s in sheets if s["your_turn"]), None)
            if sheet is None:
                break  # the game is over
            reply = api.post(f"{run}/players/{sheet['player_id']}/moves",
                             {"move_number": sheet["move_number"], "stones": _random_stones(sheet, rng)})
            if reply.status != 200:
                raise SystemExit(f"unexpected {reply.status}: {reply.text}")
            times.append(reply.elapsed_s)
            if reply.json["status"] != "in_progress":
                break
    return times


if __name__ == "__main__":
    main()
