#!/usr/bin/env python3
"""Load: K games played at once to the end through the local server, as the platform would drive
them, with moves per second, p50/p99 latency per route and every error counted.

    python -m tools.drivers.load [URL] [--games 20] [--computer-share 0.5] [--level easy] [--seed 1]

URL is a running ``make run`` server (http://127.0.0.1:3000); without it the tool starts its own
and stops it at the end. Each game runs on its own thread, one request at a time, and all K at
once:

* against the computer (``--computer-share`` of the games, level ``--level``): create the run,
  join asking for a computer opponent, then move sheet → move (the computer replies inside the
  request) until the game ends;
* human against human through an invitation: create the run, the first player joins and invites,
  the invitee opens the link and redeems it, then the two alternate move sheet → move.

The human players build a line of six with random stones in between (seeded), so games end by six
in a row after a realistic number of turns. At the end each player reads the board and the recap,
and every stored game is replayed through ``connect6.rules`` and compared with the API. Errors are
any answer other than the one the game expects (a 5xx, a reset connection, a 4xx to a legal turn).
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
import time
import uuid
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from tools.lab.timing import percentile
from tools.local.client import Reply, call, check_all_games, server_at

MAX_TURNS = 300
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: Counter[str] = field(default_factory=Counter)
    turns: int = 0  # turns applied: human turns accepted plus computer replies
    finished: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, route: str, reply: Reply, expected: tuple[int, ...]) -> None:
        with self.lock:
            if reply.failure is None:
                self.latencies[route].append(reply.seconds)
            if reply.failure or reply.status not in expected:
                self.errors[f"{route}: {reply.describe()}"] += 1


class LinePlayer:
    """Aims at six in a row along a random line; about one stone in three goes anywhere."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.plan: list[tuple[int, int]] = []

    def choose(self, board: list[str], count: int) -> list[str]:
        from connect6.records import point_label

        size = len(board)

        def at(col: int, row: int) -> str:  # row 0 is the bottom row
            return board[size - 1 - row][col]

        empty = [(c, r) for r in range(size) for c in range(size) if at(c, r) == "."]
        chosen: list[tuple[int, int]] = []
        for _ in range(min(count, len(empty))):
            free_plan = [p for p in self.plan if at(*p) == "." and p not in chosen]
            if not free_plan or len(free_plan) + sum(1 for p in self.plan if at(*p) not in ".") < 6:
                self.plan = self._new_line(size)
                free_plan = [p for p in self.plan if at(*p) == "." and p not in chosen]
            if free_plan and self.rng.random() < 0.67:
                chosen.append(free_plan[0])
            else:
                chosen.append(self.rng.choice([p for p in empty if p not in chosen]))
        return [point_label(row * size + col, size) for col, row in chosen]

    def _new_line(self, size: int) -> list[tuple[int, int]]:
        dc, dr = self.rng.choice(DIRECTIONS)
        cols = range(0, size - 5 * dc) if dc else range(size)
        rows = range(5, size) if dr < 0 else range(0, size - 5 * dr) if dr else range(size)
        col, row = self.rng.choice(list(cols)), self.rng.choice(list(rows))
        return [(col + i * dc, row + i * dr) for i in range(6)]


class Game:
    def __init__(self, base: str, game_id: str, stats: Stats, rng: random.Random) -> None:
        self.base, self.game_id, self.stats, self.rng = base, game_id, stats, rng

    def call(self, route: str, method: str, path: str, body: Any = None, expected: tuple[int, ...] = (200,),
             headers: dict[str, str] | None = None) -> Reply:
        reply = call(self.base, method, path, body, headers)
        self.stats.add(route, reply, expected)
        return reply

    def create(self) -> None:
        self.call("PUT /v1/games/{id}", "PUT", f"/v1/games/{self.game_id}",
                  {"game_name": f"Load {self.game_id}", "allow_computer_opponents": True}, (201,))

    def play(self, players: list[str], computer: bool) -> str:
        """Move sheet → move for whoever is to move, until the game ends. The final status."""
        base = f"/v1/games/{self.game_id}/players"
        minds = {p: LinePlayer(random.Random(self.rng.random())) for p in players}
        status = "in_progress"
        mover = players[0]
        for _ in range(MAX_TURNS):
            sheet = self.call("GET …/move-sheet", "GET", f"{base}/{mover}/move-sheet").parsed or {}
            if sheet.get("status") == "in_progress" and not sheet.get("your_turn") and len(players) == 2:
                mover = players[1] if mover == players[0] else players[0]
                sheet = self.call("GET …/move-sheet", "GET", f"{base}/{mover}/move-sheet").parsed or {}
            status = sheet.get("status", "error")
            if status != "in_progress":
                break
            if not sheet.get("your_turn"):
                status = "error: nobody to move"
                break
            stones = minds[mover].choose(sheet["board"], sheet["stones_to_place"])
            route = "POST …/moves (+ computer reply)" if computer else "POST …/moves"
            moved = self.call(route, "POST", f"{base}/{mover}/moves",
                              {"move_number": sheet["move_number"], "stones": stones})
            if moved.status != 200:
                status = "error"
                break
            result = moved.parsed or {}
            with self.stats.lock:
                self.stats.turns += 1 + int(result.get("computer_reply") is not None)
            status = str(result.get("status"))
            if status != "in_progress":
                break
            if len(players) == 2:
                mover = players[1] if mover == players[0] else players[0]
        for player in players:
            self.call("GET /v1/games/{id}/board", "GET", f"/v1/games/{self.game_id}/board")
            if status in ("completed", "draw"):
                self.call("GET …/recap", "GET", f"{base}/{player}/recap")
        return status

    def against_computer(self, level: str) -> str:
        self.create()
        joined = self.call("POST …/players", "POST", f"/v1/games/{self.game_id}/players", {
            "name": "Ana", "email": "ana@example.com", "opponent": {"kind": "computer", "level": level}},
            (201,)).parsed or {}
        if "player_id" not in joined:
            return "error"
        return self.play([joined["player_id"]], computer=True)

    def through_invitation(self) -> str:
        self.create()
        joined = self.call("POST …/players", "POST", f"/v1/games/{self.game_id}/players", {
            "name": "Ana", "email": "ana@example.com",
            "opponent": {"kind": "invite", "name": "Ben", "email": "ben@example.com"}}, (201,)).parsed or {}
        url = (joined.get("invite") or {}).get("url") or ""
        if "/v1/invites/" not in url:
            return "error"
        path = url[url.find("/v1/invites/"):]
        self.call("GET /v1/invites/{token}", "GET", path, headers={"Accept": "text/html"})
        redeemed = self.call("POST /v1/invites/{token}", "POST", path, {"name": "Ben"}, (201,)).parsed or {}
        if "player_id" not in redeemed:
            return "error"
        return self.play([joined["player_id"], redeemed["player_id"]], computer=False)


def run(base: str, games: int, computer_share: float, level: str, seed: int) -> tuple[Stats, float]:
    stats = Stats()
    run_id = uuid.uuid4().hex[:8]
    master = random.Random(seed)
    plans = [(f"load-{run_id}-{i}", i < round(games * computer_share), random.Random(master.random()))
             for i in range(games)]

    def one(plan: tuple[str, bool, random.Random]) -> None:
        game_id, computer, rng = plan
        game = Game(base, game_id, stats, rng)
        try:
            status = game.against_computer(level) if computer else game.through_invitation()
        except Exception as error:  # a tool: count it, keep the other games going
            status = "error"
            stats.add("client", Reply(0, failure=f"{type(error).__name__}: {error}"), (200,))
        with stats.lock:
            stats.finished[f"{'vs computer' if computer else 'human vs human'}: {status}"] += 1

    started = time.perf_counter()
    with ThreadPoolExecutor(max(1, games)) as pool:
        list(pool.map(one, plans))
    return stats, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url", nargs="?", help="a running local server (default: start one)")
    parser.add_argument("--games", type=int, default=20, help="games played at once (default 20)")
    parser.add_argument("--computer-share", type=float, default=0.5,
                        help="share of the games against the computer (default 0.5)")
    parser.add_argument("--level", default="easy", choices=("easy", "normal", "hard"))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    with server_at(args.url, "--sweep-seconds", "3600") as server:
        base = server.base_url
        stats, elapsed = run(base, args.games, args.computer_share, args.level, args.seed)
        games, problems = check_all_games(base)

    requests = sum(len(v) for v in stats.latencies.values())
    print()
    print(f"{args.games} games at once ({round(args.games * args.computer_share)} against the computer, "
          f"{args.level}), {elapsed:.1f} s, against {base}")
    print(f"turns applied: {stats.turns} ({stats.turns / elapsed:.1f} moves/s); requests: {requests} "
          f"({requests / elapsed:.1f}/s)")
    print("games: " + ", ".join(f"{k} {v}" for k, v in sorted(stats.finished.items())))
    print(f"{'route':36} {'n':>6} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for route, values in sorted(stats.latencies.items()):
        print(f"{route:36} {len(values):6} {percentile(values, 0.5) * 1000:8.1f} "
              f"{percentile(values, 0.99) * 1000:8.1f} {max(values) * 1000:8.1f}")
    errors = sum(stats.errors.values())
    print(f"errors: {errors}")
    for text, count in stats.errors.most_common(10):
        print(f"  {count} × {text}")
    print(f"replay: {games} stored games replayed and compared with GET /board: "
          f"{len(problems)} inconsistencies")
    for problem in problems[:10]:
        print(f"  {problem}")
    unfinished = sum(v for k, v in stats.finished.items() if not k.endswith(("completed", "draw")))
    tracebacks = server.tracebacks()
    if tracebacks:
        print(f"the server printed {tracebacks} tracebacks")
    return 1 if errors or problems or unfinished or tracebacks else 0


if __name__ == "__main__":
    sys.exit(main())
