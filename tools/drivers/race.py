#!/usr/bin/env python3
"""Races through the local server: many conflicting requests at one instant, round after round,
and every stored game replayed through the rules at the end.

    python -m tools.drivers.race [URL] [--rounds 100] [--width 30] [--connections 10000]

URL is a running ``make run`` server (http://127.0.0.1:3000); without it the tool starts its own
(``tools/local/local_api.py --port 0``) and stops it at the end. Each round runs seven races, each on a
fresh game, ``--width`` requests released at once (every connection is open before any request is
sent):

* ``turn from both seats``: half the requests from the player to move, half from the other, each
  a different legal turn;
* ``one seat, many turns``: every request from the player to move, each a different turn;
* ``joins for the last seat``: one seat taken, every request a different person joining;
* ``redemption vs sweeper``: one invitation, two requests fire the sweeper with its clock 25 hours
  ahead (``POST /_local/sweep``, local only), the rest redeem the invitation now;
* ``one Idempotency-Key``: the same join with the same key, every request;
* ``move vs time-out sweep``: a timed game (one hour a move) between two people; one request
  moves the local clock to just past the mover's deadline and sweeps (``POST /_local/sweep``), the
  rest are the mover's different first moves: either one move lands and the game goes on, or the
  game is lost on time (the other side the winner, finished at the deadline, the stored write's
  events one ``game_finished`` with ``end_reason: time``), never both and never neither;
* ``pause vs move``: a timed game; one request pauses it, the rest are the mover's different
  first moves: at most one lands, and only before the pause (the pause's own answer shows it), the
  rest are refused (``game_paused`` after the pause); the game stays paused with its clock standing,
  and a resume lets it go on.

Invariants: exactly one winner per race (one applied turn, one seated joiner, the invitation either
redeemed once or released once, one join behind the key), every loser a 4xx with the expected code
(replays of the idempotent join are its identical 201), no 5xx, no connection reset; then every
game in the table is read, replayed through ``connect6.rules`` and compared with what
``GET /v1/games/{id}/board`` reports. ``--connections N`` also opens N connections at once (one
cheap request each) and counts the ones reset or refused. Exit status 1 when any invariant broke.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from tools.local.client import Reply, Request, call, check_all_games, server_at, together

SWEEP_AHEAD_S = 25 * 3600  # past the 24-hour hold
# The clock races' games: one hour a move. Before the race the local clock is moved ten minutes on,
# so a move that lands starts the other side's hour well after the instant the sweep is moved to.
TIMED = {"kind": "per_move", "hours": 1}
BANK = {"kind": "bank", "initial_hours": 240, "increment_hours": 36, "max_hours": 240}
CLOCK_LEAD_S = 600
PAST_DEADLINE_S = 0.2  # the sweep's instant, after the mover's deadline


@dataclass
class Tally:
    rounds: int = 0
    requests: int = 0
    held: int = 0  # rounds whose invariants all held
    statuses: Counter[str] = field(default_factory=Counter)
    violations: list[str] = field(default_factory=list)


class Races:
    def __init__(self, base_url: str, width: int, run_id: str) -> None:
        self.base = base_url
        self.width = width
        self.run_id = run_id
        self.tallies: dict[str, Tally] = {}
        self.setup_problems: list[str] = []

    # -- helpers

    def setup(self, method: str, path: str, body: Any = None, expect: tuple[int, ...] = (200, 201)) -> Reply:
        reply = call(self.base, method, path, body)
        if reply.status not in expect:
            self.setup_problems.append(f"{method} {path} -> {reply.describe()}")
        return reply

    def record(self, name: str, replies: list[Reply], problems: list[str]) -> None:
        tally = self.tallies.setdefault(name, Tally())
        tally.rounds += 1
        tally.requests += len(replies)
        for reply in replies:
            tally.statuses[reply.failure or f"{reply.status // 100}xx"] += 1
            if reply.failure:
                problems.append(f"no answer: {reply.failure}")
            elif reply.status >= 500:
                problems.append(f"{reply.status}: {reply.body[:120]!r}")
        if problems:
            tally.violations += [f"round {tally.rounds}: {p}" for p in dict.fromkeys(problems)]
        else:
            tally.held += 1

    def new_run(self, kind: str, round_: int, allow_computer: bool = False) -> str:
        game_id = f"race-{self.run_id}-{round_}-{kind}"
        self.setup("PUT", f"/v1/games/{game_id}", {"game_name": f"Race {kind} {round_}",
                                                  "allow_computer_opponents": allow_computer})
        return game_id

    @staticmethod
    def losers_only(replies: list[Reply], winner: int, codes: set[str]) -> list[str]:
        return [f"a loser got {r.describe()} (expected 4xx {sorted(codes)})"
                for r in replies if r.status != winner and not (400 <= r.status < 500 and r.code in codes)]

    def empty_pairs(self, game_id: str, count: int) -> list[list[str]]:
        board = self.setup("GET", f"/v1/games/{game_id}/board").parsed or {}
        rows: list[str] = board.get("board") or []
        size = len(rows)
        from connect6.records import point_label

        free = [point_label((size - 1 - top) * size + col, size)
                for top, row in enumerate(rows) for col, ch in enumerate(row) if ch == "."]
        return [free[2 * i: 2 * i + 2] for i in range(count)]

    def timed_game(self, kind: str, round_: int, control: dict[str, Any]) -> tuple[str, str]:
        """A started timed game between two people: (game id, the mover's player id), or ("", "")."""
        game_id = f"race-{self.run_id}-{round_}-{kind}"
        self.setup("PUT", f"/v1/games/{game_id}", {"game_name": f"Race {kind} {round_}",
                                                  "time_control": control})
        players = f"/v1/games/{game_id}/players"
        ana = self.setup("POST", players, {"name": "Ana", "email": "ana@example.com"}).parsed or {}
        ben = self.setup("POST", players, {"name": "Ben", "email": "ben@example.com"}).parsed or {}
        started = ben.get("game") or {}
        if started.get("status") != "in_progress" or not (started.get("clock") or {}).get("deadline"):
            self.setup_problems.append(f"{game_id}: did not start with a running clock: {started}")
            return "", ""
        by_name = {"Ana": str(ana.get("player_id")), "Ben": str(ben.get("player_id"))}
        return game_id, by_name[started["black"]["name"]]

    def first_moves(self, game_id: str, count: int) -> list[list[str]]:
        return [[pair[0]] for pair in self.empty_pairs(game_id, count)]

    def stored_outbox(self, game_id: str) -> list[tuple[str, dict[str, Any]]]:
        """The events of the stored game's last write (its ``outbox``), read from the table."""
        import boto3

        from connect6.game.events import decode_outbox

        info = call(self.base, "GET", "/_local/info").json
        client = boto3.client("dynamodb", region_name=info["region"], endpoint_url=info["dynamodb_endpoint"],
                              aws_access_key_id="testing", aws_secret_access_key="testing")
        table = next(iter(info["tables"].values()))
        item = client.get_item(TableName=table, Key={"pk": {"S": f"GAME#{game_id}"}, "sk": {"S": "GAME"}},
                               ConsistentRead=True).get("Item") or {}
        text = (item.get("outbox") or {}).get("S")
        return [(event.detail_type, event.detail) for event in decode_outbox(text)] if text else []

    # -- the races

    def move_vs_timeout(self, round_: int) -> None:
        game_id, black = self.timed_game("clock", round_, TIMED)
        if not game_id:
            return
        self.setup("POST", f"/_local/sweep?shift_seconds={CLOCK_LEAD_S}")
        view = call(self.base, "GET", f"/v1/games/{game_id}/board").parsed or {}
        deadline_text = str((view.get("clock") or {}).get("deadline") or "")
        info = call(self.base, "GET", "/_local/info").parsed or {}
        now_text = str((info.get("clock") or {}).get("now") or "")
        if not deadline_text or not now_text:
            self.setup_problems.append(f"{game_id}: no deadline ({view.get('clock')}) or no server clock")
            return
        deadline, now = _moment(deadline_text), _moment(now_text)
        shift = max((deadline - now).total_seconds(), 0.0) + PAST_DEADLINE_S
        moves = self.first_moves(game_id, self.width - 1)
        path = f"/v1/games/{game_id}/players/{black}/moves"
        replies = together([Request(self.base, "POST", f"/_local/sweep?shift_seconds={shift:.3f}")]
                           + [Request(self.base, "POST", path, {"move_number": 1, "stones": stones})
                              for stones in moves])
        sweep, move_replies = replies[0], replies[1:]
        landed = [i for i, r in enumerate(move_replies) if r.status == 200]
        after = call(self.base, "GET", f"/v1/games/{game_id}/board").parsed or {}
        timed_out = after.get("status") == "completed" and after.get("end_reason") == "time"
        problems = []
        if len(landed) + int(timed_out) != 1:
            problems.append(f"{len(landed)} moves landed and lost on time: {timed_out} "
                            f"(status {after.get('status')}, end {after.get('end_reason')})")
        problems += self.losers_only(move_replies, 200, {"stale_move", "not_your_turn", "game_over"})
        if sweep.status != 200 or not all(r.get("ok") for r in (sweep.parsed or {}).get("results") or []):
            problems.append(f"the sweep failed: {sweep.describe()}")
        events = self.stored_outbox(game_id)
        finished = [detail for kind, detail in events if kind == "game_finished"]
        if timed_out:
            if after.get("move_count") != 0 or (after.get("winner") or {}).get("colour") != "white":
                problems.append(f"lost on time but move_count {after.get('move_count')}, "
                                f"winner {after.get('winner')}")
            if len(finished) != 1 or finished[0].get("end_reason") != "time":
                problems.append(f"lost on time but the stored write's events are {events}")
        elif len(landed) == 1:
            if after.get("status") != "in_progress" or after.get("move_count") != 1:
                problems.append(f"the move landed but the game is {after.get('status')} at "
                                f"{after.get('move_count')} moves")
            elif (after.get("last_move") or {}).get("stones") != moves[landed[0]]:
                problems.append(f"stored {after.get('last_move')}, accepted {moves[landed[0]]}")
            if finished:
                problems.append(f"the move landed and the game finished too: {events}")
        self.record("move vs time-out sweep", replies, problems)

    def pause_vs_move(self, round_: int) -> None:
        game_id, black = self.timed_game("pause", round_, BANK)
        if not game_id:
            return
        moves = self.first_moves(game_id, self.width - 1)
        path = f"/v1/games/{game_id}/players/{black}/moves"
        replies = together([Request(self.base, "POST", f"/v1/games/{game_id}/pause")]
                           + [Request(self.base, "POST", path, {"move_number": 1, "stones": stones})
                              for stones in moves])
        pause, move_replies = replies[0], replies[1:]
        landed = [i for i, r in enumerate(move_replies) if r.status == 200]
        paused_view = pause.parsed or {}
        problems = [] if len(landed) <= 1 else [f"{len(landed)} moves landed"]
        problems += self.losers_only(move_replies, 200, {"stale_move", "not_your_turn", "game_paused"})
        if pause.status != 200 or paused_view.get("paused") is not True:
            problems.append(f"the pause failed: {pause.describe()}")
        elif paused_view.get("move_count") != len(landed):
            problems.append(f"a move landed while paused: the pause saw {paused_view.get('move_count')} "
                            f"moves, {len(landed)} landed")
        after = call(self.base, "GET", f"/v1/games/{game_id}/board").parsed or {}
        if after.get("paused") is not True or (after.get("clock") or {}).get("deadline") is not None:
            problems.append(f"not paused with its clock standing after the race: {after.get('clock')}")
        if after.get("move_count") != len(landed):
            problems.append(f"move_count {after.get('move_count')}, {len(landed)} moves landed")
        resumed = call(self.base, "POST", f"/v1/games/{game_id}/resume")
        if resumed.status != 200 or (resumed.parsed or {}).get("paused") is not False:
            problems.append(f"the resume failed: {resumed.describe()}")
        self.record("pause vs move", replies, problems)


    def turns(self, round_: int) -> None:
        """Both seats submit move 2 (only White may); then Black alone submits move 3 many ways."""
        game_id = self.new_run("turns", round_)
        players = f"/v1/games/{game_id}/players"
        ana = self.setup("POST", players, {"name": "Ana", "email": "ana@example.com"}).parsed or {}
        ben = self.setup("POST", players, {"name": "Ben", "email": "ben@example.com"}).parsed or {}
        started = ben.get("game") or {}
        if started.get("status") != "in_progress":
            self.setup_problems.append(f"{game_id}: did not start: {started}")
            return
        by_name = {"Ana": str(ana.get("player_id")), "Ben": str(ben.get("player_id"))}
        black, white = by_name[started["black"]["name"]], by_name[started["white"]["name"]]
        self.setup("POST", f"{players}/{black}/moves", {"move_number": 1, "stones": ["h8"]})

        pairs = self.empty_pairs(game_id, self.width)
        sent = [(white if i % 2 == 0 else black, pair) for i, pair in enumerate(pairs)]
        replies = together([Request(self.base, "POST", f"{players}/{seat}/moves",
                                         {"move_number": 2, "stones": pair}) for seat, pair in sent])
        problems = self.one_turn_landed(game_id, replies, [pair for _, pair in sent], 2, white,
                                        [seat for seat, _ in sent])
        self.record("turn from both seats", replies, problems)

        pairs = self.empty_pairs(game_id, self.width)
        replies = together([Request(self.base, "POST", f"{players}/{black}/moves",
                                         {"move_number": 3, "stones": pair}) for pair in pairs])
        problems = self.one_turn_landed(game_id, replies, pairs, 3, black, [black] * len(pairs))
        self.record("one seat, many turns", replies, problems)

    def one_turn_landed(self, game_id: str, replies: list[Reply], pairs: list[list[str]], number: int,
                        mover: str, seats: list[str]) -> list[str]:
        winners = [i for i, r in enumerate(replies) if r.status == 200]
        problems = [] if len(winners) == 1 else [f"{len(winners)} turns accepted"]
        problems += self.losers_only(replies, 200, {"not_your_turn", "stale_move"})
        problems += [f"the player not to move had a turn accepted: {pairs[i]}"
                     for i in winners if seats[i] != mover]
        view = call(self.base, "GET", f"/v1/games/{game_id}/board").parsed or {}
        if view.get("move_count") != number:
            problems.append(f"move_count {view.get('move_count')} after the race for move {number}")
        elif len(winners) == 1 and (view.get("last_move") or {}).get("stones") != pairs[winners[0]]:
            problems.append(f"stored turn {view.get('last_move')} is not the accepted {pairs[winners[0]]}")
        return problems

    def last_seat(self, round_: int) -> None:
        game_id = self.new_run("seat", round_)
        players = f"/v1/games/{game_id}/players"
        self.setup("POST", players, {"name": "Ana", "email": "ana@example.com"})
        replies = together([Request(self.base, "POST", players, {"name": f"Joiner {i}",
                                                            "email": f"j{i}@example.com"})
                            for i in range(self.width)])
        winners = [i for i, r in enumerate(replies) if r.status == 201]
        problems = [] if len(winners) == 1 else [f"{len(winners)} joins seated"]
        problems += self.losers_only(replies, 201, {"no_open_seat"})
        view = call(self.base, "GET", f"/v1/games/{game_id}/board").parsed or {}
        names = sorted(s.get("name") or "" for s in view.get("seats") or [])
        if view.get("status") != "in_progress":
            problems.append(f"status {view.get('status')} after the last seat was taken")
        if len(winners) == 1 and names != sorted(["Ana", f"Joiner {winners[0]}"]):
            problems.append(f"seats hold {names}, the seated joiner was Joiner {winners[0]}")
        self.record("joins for the last seat", replies, problems)

    def redemption_vs_sweeper(self, round_: int) -> None:
        game_id = self.new_run("hold", round_, allow_computer=True)
        joined = self.setup("POST", f"/v1/games/{game_id}/players", {
            "name": "Ana", "email": "ana@example.com",
            "opponent": {"kind": "invite", "name": "Ben", "email": "ben@example.com"}}).parsed or {}
        url = ((joined.get("invite") or {}).get("url") or "")
        path = url[url.find("/v1/invites/"):] if "/v1/invites/" in url else ""
        if not path:
            self.setup_problems.append(f"{game_id}: no invitation link")
            return
        sweeps = 2
        sweep = f"/_local/sweep?shift_seconds={SWEEP_AHEAD_S}"
        requests = [Request(self.base, "POST", sweep) for _ in range(sweeps)]
        requests += [Request(self.base, "POST", path, {"name": "Ben"}) for _ in range(self.width - sweeps)]
        replies = together(requests)
        sweep_replies, redeem_replies = replies[:sweeps], replies[sweeps:]
        redeemed = sum(1 for r in redeem_replies if r.status == 201)
        view = call(self.base, "GET", f"/v1/games/{game_id}/board").parsed or {}
        seats = [s.get("state") for s in view.get("seats") or []]
        released = view.get("status") == "waiting_for_players" and seats.count("open") == 1
        problems = []
        if redeemed + int(released) != 1:
            problems.append(f"{redeemed} redemptions won and the sweeper released the seat: {released} "
                            f"(status {view.get('status')}, seats {seats})")
        if redeemed == 1 and (view.get("status") != "in_progress" or seats != ["taken", "taken"]):
            problems.append(f"redeemed but the game is {view.get('status')} with seats {seats}")
        problems += self.losers_only(redeem_replies, 201, {"invite_already_used", "invite_expired"})
        if released:
            problems += [f"a redemption won after the sweeper released the seat: {r.describe()}"
                         for r in redeem_replies if r.status == 201]
        for reply in sweep_replies:
            results = (reply.parsed or {}).get("results") or []
            if reply.status != 200 or not all(r.get("ok") for r in results):
                problems.append(f"the sweeper failed: {reply.describe()}")
        self.record("redemption vs sweeper", replies, problems)

    def idempotency_key(self, round_: int) -> None:
        game_id = self.new_run("key", round_)
        body = {"name": "Cy", "email": "cy@example.com"}
        key = {"Idempotency-Key": f"race-{self.run_id}-{round_}"}
        replies = together([Request(self.base, "POST", f"/v1/games/{game_id}/players", body, key)
                            for _ in range(self.width)])
        created = [r for r in replies if r.status == 201]
        player_ids = {(r.parsed or {}).get("player_id") for r in created}
        problems = [] if len(player_ids) == 1 else [f"{len(player_ids)} different joins behind one key"]
        if len({r.body for r in created}) > 1:
            problems.append("the replayed answers differ from the first")
        problems += self.losers_only(replies, 201, {"request_in_progress"})
        view = call(self.base, "GET", f"/v1/games/{game_id}/board").parsed or {}
        taken = [s for s in view.get("seats") or [] if s.get("state") == "taken"]
        if len(taken) != 1:
            problems.append(f"{len(taken)} seats taken after one join")
        self.record("one Idempotency-Key", replies, problems)

    def play_link(self, round_: int) -> None:
        """One turn sent many times through the play links (v1.2): half through the mover's link,
        each a different legal turn, half through the other player's; exactly one lands, every
        other answer is the page with a refusal (303 ``?refused=...``), and the board says so."""
        game_id = self.new_run("play", round_)
        players = f"/v1/games/{game_id}/players"
        ana = self.setup("POST", players, {"name": "Ana", "email": "ana@example.com"}).parsed or {}
        ben = self.setup("POST", players, {"name": "Ben", "email": "ben@example.com"}).parsed or {}
        started = ben.get("game") or {}
        if started.get("status") != "in_progress" or not ana.get("play_url") or not ben.get("play_url"):
            self.setup_problems.append(f"{game_id}: did not start with play links: {started}")
            return
        by_name = {"Ana": ana, "Ben": ben}
        black = by_name[started["black"]["name"]]
        self.setup("POST", f"{players}/{black['player_id']}/moves", {"move_number": 1, "stones": ["h8"]})
        links = {name: urlsplit(str(joined["play_url"])).path for name, joined in by_name.items()}
        mover = started["white"]["name"]
        pairs = self.empty_pairs(game_id, self.width)
        sent = [(mover if i % 2 == 0 else started["black"]["name"], pair) for i, pair in enumerate(pairs)]
        replies = together([Request(self.base, "POST", links[name],
                                    form={"move_number": "2", "stone_1": pair[0], "stone_2": pair[1]})
                            for name, pair in sent])
        refused = [r.status == 303 and "refused=" in r.headers.get("location", "") for r in replies]
        landed = [i for i, r in enumerate(replies) if r.status == 303 and not refused[i]]
        problems = [] if len(landed) == 1 else [f"{len(landed)} turns accepted through the play links"]
        problems += [f"a loser got {r.describe()} (expected 303 with ?refused=)"
                     for i, r in enumerate(replies) if i not in landed and not refused[i]]
        problems += [f"the player not to move had a turn accepted: {pairs[i]}" for i in landed
                     if sent[i][0] != mover]
        view = call(self.base, "GET", f"/v1/games/{game_id}/board").parsed or {}
        if view.get("move_count") != 2:
            problems.append(f"move_count {view.get('move_count')} after the race for move 2")
        elif len(landed) == 1 and (view.get("last_move") or {}).get("stones") != pairs[landed[0]]:
            problems.append(f"stored turn {view.get('last_move')} is not the accepted {pairs[landed[0]]}")
        self.record("turn via the play links", replies, problems)

    def run(self, rounds: int, progress: Callable[[int], None]) -> None:
        for round_ in range(1, rounds + 1):
            self.turns(round_)
            self.play_link(round_)
            self.last_seat(round_)
            self.redemption_vs_sweeper(round_)
            self.idempotency_key(round_)
            self.move_vs_timeout(round_)
            self.pause_vs_move(round_)
            progress(round_)


def _moment(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


# ---------------------------------------------------------------------------------------------
# A burst of connections


async def _one_connection(host: str, port: int, timeout: float) -> str:
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
        writer.write(b"GET /v1/nothing HTTP/1.1\r\nHost: local\r\nConnection: close\r\n\r\n")
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), timeout)
        writer.close()
        if not line:
            return "closed without an answer"
        return "answered" if line.startswith(b"HTTP/1.1 404") else f"answered {line[:20]!r}"
    except ConnectionResetError:
        return "reset"
    except ConnectionRefusedError:
        return "refused"
    except TimeoutError:
        return "timed out"
    except OSError as error:
        return f"error {error.strerror or type(error).__name__}"


def connection_burst(base_url: str, count: int, timeout: float = 120.0) -> Counter[str]:
    """Open ``count`` connections at once, one small request each (an unrouted path: 404)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < count + 100:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, count + 200), hard))
    host, _, port = base_url.removeprefix("http://").partition(":")

    async def burst() -> list[str]:
        return await asyncio.gather(*(_one_connection(host, int(port), timeout) for _ in range(count)))

    # On a thread of its own: the caller may already run an event loop (pytest with Playwright does).
    outcomes: list[str] = []
    worker = threading.Thread(target=lambda: outcomes.extend(asyncio.run(burst())), daemon=True)
    worker.start()
    worker.join()
    return Counter(outcomes)


# ---------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url", nargs="?", help="a running local server (default: start one)")
    parser.add_argument("--rounds", type=int, default=100, help="rounds of the seven races (default 100)")
    parser.add_argument("--width", type=int, default=30,
                        help="requests released at once per race (20–50; default 30)")
    parser.add_argument("--connections", type=int, default=0,
                        help="also open this many connections at once and count resets (default 0: skip)")
    parser.add_argument("--race-window-ms", type=float, default=2.0,
                        help="for a server this tool starts: moto's pause inside each conditional write "
                             "(local_api.py --race-window-ms), so racing requests interleave (default 2)")
    args = parser.parse_args(argv)
    if not 3 <= args.width <= 100:
        parser.error("--width must be between 3 and 100")

    failed = False
    window = str(args.race_window_ms)
    with server_at(args.url, "--sweep-seconds", "3600", "--race-window-ms", window) as server:
        base = server.base_url
        started = time.perf_counter()
        races = Races(base, args.width, uuid.uuid4().hex[:8])

        def progress(round_: int) -> None:
            if round_ % 10 == 0 or round_ == args.rounds:
                print(f"  round {round_}/{args.rounds}  {time.perf_counter() - started:.0f} s", flush=True)

        races.run(args.rounds, progress)
        games, replay_problems = check_all_games(base)
        burst = connection_burst(base, args.connections) if args.connections else Counter()
    elapsed = time.perf_counter() - started

    print()
    print(f"{args.rounds} rounds, {args.width} requests at once per race, {elapsed:.0f} s, against {base}")
    print(f"{'race':26} {'rounds':>6} {'requests':>8} {'held':>5} {'violated':>8}  answers")
    for name, tally in races.tallies.items():
        answers = ", ".join(f"{k} {v}" for k, v in sorted(tally.statuses.items()))
        violated = tally.rounds - tally.held
        print(f"{name:26} {tally.rounds:6} {tally.requests:8} {tally.held:5} {violated:8}  {answers}")
        failed |= bool(violated)
    print(f"replay: {games} stored games read from the table, replayed through connect6.rules and "
          f"compared with GET /board: {len(replay_problems)} inconsistencies")
    failed |= bool(replay_problems) or bool(races.setup_problems)
    if races.setup_problems:
        print(f"set-up requests that failed: {len(races.setup_problems)}")
    if burst:
        tried = sum(burst.values())
        outcomes = ", ".join(f"{k} {v}" for k, v in burst.most_common())
        print(f"connections: {tried} opened at once: {outcomes}")
        failed |= burst["answered"] != tried
    if server.tracebacks():
        print(f"the server printed {server.tracebacks()} tracebacks")
        failed = True
    shown = [f"{name}: {v}" for name, tally in races.tallies.items() for v in tally.violations]
    for line in (shown + replay_problems + races.setup_problems)[:30]:
        print("  VIOLATION " + line)
    print("all invariants held" if not failed else "INVARIANTS BROKEN")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
