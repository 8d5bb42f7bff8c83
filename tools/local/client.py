"""The local server's client, which the drivers (``tools/drivers/``) and the end-to-end and
integration tests share: the one :class:`Reply`, a plain HTTP client (one connection per request,
every failure classified, nothing retried), :func:`start_server` (the one way to start a local
server of one's own and wait until it is ready) and :class:`LocalServer`, and reading and replaying
every stored game from the server's table."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Reply:
    """An HTTP answer, or why there was none (``failure``: ``reset``, ``refused``, ``timeout``, …).

    The one reply class: the drivers' requests, :meth:`LocalServer.request` (the end-to-end tests)
    and the integration tests' in-process ``Api`` (``tests/integration/harness.py``) all answer one.
    """

    status: int
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    failure: str | None = None
    seconds: float = 0.0

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")

    @property
    def json(self) -> Any:
        """The body parsed (``ValueError`` when it is not JSON)."""
        return json.loads(self.body)

    @property
    def parsed(self) -> Any:
        """The body parsed, or ``None`` when it is not JSON (no answer, an HTML page)."""
        try:
            return json.loads(self.body)
        except ValueError:
            return None

    @property
    def error(self) -> dict[str, Any]:
        """The ``error`` object of an answer in the contract's error shape (``AssertionError`` when
        the body is anything else)."""
        data = self.json
        if not (isinstance(data, dict) and set(data) == {"error"}):
            raise AssertionError(data)
        return dict(data["error"])

    @property
    def code(self) -> str | None:
        """The error code of a 4xx in the contract's shape."""
        data = self.parsed
        if isinstance(data, dict) and isinstance(data.get("error"), dict):
            return str(data["error"].get("code"))
        return None

    def describe(self) -> str:
        if self.failure:
            return self.failure
        return f"{self.status} {self.code or self.body[:80]!r}"


# What a failed request is counted as, by the exception it raised (the first class that applies).
FAILURES = ((http.client.RemoteDisconnected, "reset"), (ConnectionResetError, "reset"),
            (BrokenPipeError, "reset"), (ConnectionRefusedError, "refused"), (TimeoutError, "timeout"))


def classify(error: BaseException) -> str:
    return next((name for kind, name in FAILURES if isinstance(error, kind)), f"error:{type(error).__name__}")


class Request:
    """One request on its own connection, opened by :meth:`connect` and sent by :meth:`send`, so a
    batch can connect first and then send at one instant."""

    def __init__(self, base_url: str, method: str, path: str, body: Any = None,
                 headers: dict[str, str] | None = None, timeout: float = 120.0, *,
                 form: dict[str, str] | None = None) -> None:
        parts = urlsplit(base_url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.method, self.path, self.body, self.form = method, path, body, form
        # A form is sent as a browser sends it (its answer is a page); a body as JSON.
        accept = "text/html" if form is not None else "application/json"
        self.headers = {"Accept": accept, **(headers or {})}
        if body is not None:
            self.headers.setdefault("Content-Type", "application/json")
        elif form is not None:
            self.headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
        self.timeout = timeout
        self.connection: http.client.HTTPConnection | None = None
        self.failed: str | None = None

    def connect(self) -> None:
        self.connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        try:
            self.connection.connect()
        except OSError as error:
            self.failed = classify(error)

    def send(self) -> Reply:
        if self.connection is None:
            self.connect()
        if self.failed:
            return Reply(0, failure=self.failed)
        assert self.connection is not None
        data = (json.dumps(self.body).encode() if self.body is not None
                else urlencode(self.form).encode() if self.form is not None else None)
        started = time.perf_counter()
        try:
            self.connection.request(self.method, self.path, body=data, headers=self.headers)
            response = self.connection.getresponse()
            body = response.read()
            return Reply(response.status, {k.lower(): v for k, v in response.getheaders()}, body,
                         seconds=time.perf_counter() - started)
        except (OSError, http.client.HTTPException) as error:
            return Reply(0, failure=classify(error), seconds=time.perf_counter() - started)
        finally:
            self.connection.close()


def call(base_url: str, method: str, path: str, body: Any = None,
         headers: dict[str, str] | None = None) -> Reply:
    return Request(base_url, method, path, body, headers).send()


def together(requests: list[Request]) -> list[Reply]:
    """Send the requests at one instant: every connection is open before any request is sent."""
    barrier = threading.Barrier(len(requests))
    replies: list[Reply] = [Reply(0, failure="not sent")] * len(requests)

    def run(index: int, request: Request) -> None:
        request.connect()
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait(timeout=60)
        replies[index] = request.send()

    threads = [threading.Thread(target=run, args=(i, r), daemon=True) for i, r in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    return replies


@dataclass
class LocalServer:
    """The local server (``python -m tools.local.local_api``): one this process started
    (:func:`start_server`, its output in ``lines``), or (no process) one given by its URL."""

    process: subprocess.Popen[str] | None
    base_url: str
    lines: list[str] = field(default_factory=list)

    def output(self) -> str:
        return "\n".join(self.lines)

    def tracebacks(self) -> int:
        return sum(1 for line in self.lines if line.startswith("Traceback"))

    def wait_for_line(self, needle: str, timeout: float) -> str:
        """The first output line holding ``needle``, waiting up to ``timeout`` seconds for it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.lines):
                if needle in line:
                    return line
            if self.process is not None and self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise TimeoutError(f"no line with {needle!r} from the local server; output:\n{self.output()}")

    def request(self, method: str, path: str, body: Any = None, *, headers: dict[str, str] | None = None,
                form: dict[str, str] | None = None) -> Reply:
        """One request as a browser's fetch would send it (urllib: redirects followed); ``path`` is
        relative to the server or a whole URL; ``body`` is sent as JSON, ``form`` as a form."""
        data = None
        sent = {"Accept": "application/json", **(headers or {})}
        if body is not None:
            data = json.dumps(body).encode()
            sent.setdefault("Content-Type", "application/json")
        elif form is not None:
            data = urlencode(form).encode()
            sent.setdefault("Content-Type", "application/x-www-form-urlencoded")
        url = path if path.startswith("http") else self.base_url + path
        req = urllib.request.Request(url, data=data, method=method, headers=sent)
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                return Reply(resp.status, {k.lower(): v for k, v in resp.headers.items()}, resp.read())
        except urllib.error.HTTPError as error:
            return Reply(error.code, {k.lower(): v for k, v in error.headers.items()}, error.read())

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 30) -> int:
        """Send ``sig`` and wait for the exit code (killed after ``timeout`` seconds)."""
        if self.process is None:
            return 0
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait(10)


def start_server(*extra: str) -> LocalServer:
    """Start the local server on a free port of 127.0.0.1 (``extra``: its options) and wait until
    it is ready; the one way the drivers and the end-to-end tests start one."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tools.local.local_api", "--port", "0", *extra],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1,
        env={**{k: v for k, v in os.environ.items() if not k.startswith("AWS_")}, "PYTHONUNBUFFERED": "1"},
    )
    lines: list[str] = []
    ready = threading.Event()
    found: dict[str, str] = {}

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            line = line.rstrip("\n")
            lines.append(line)
            matched = re.search(r"local API on (http://127\.0\.0\.1:\d+)", line)
            if matched:
                found["url"] = matched.group(1)
            if line.startswith("ready in"):
                ready.set()
        ready.set()

    threading.Thread(target=pump, daemon=True).start()
    if not ready.wait(120) or "url" not in found or process.poll() is not None:
        process.kill()
        raise RuntimeError("the local server did not start:\n" + "\n".join(lines[-30:]))
    return LocalServer(process, found["url"], lines)


@contextlib.contextmanager
def server_at(url: str | None, *extra: str) -> Iterator[LocalServer]:
    """The server at ``url``, or without one a local server of our own (``extra``: its options),
    stopped at the end."""
    if url:
        yield LocalServer(None, url.rstrip("/"))
        return
    own = start_server(*extra)
    print(f"started {own.base_url}")
    try:
        yield own
    finally:
        own.stop()


# ---------------------------------------------------------------------------------------------
# The stored games, read from the server's table and replayed through connect6.rules


def stored_games(base_url: str) -> list[dict[str, Any]]:
    """Every game item in the local server's table (found through ``GET /_local/info``)."""
    import boto3

    from connect6.store.dynamo import from_item

    info = call(base_url, "GET", "/_local/info")
    if info.status != 200:
        raise SystemExit(f"{base_url}/_local/info answered {info.describe()}: "
                         "is this the local server (tools/local/local_api.py)?")
    data = info.json
    client = boto3.client("dynamodb", region_name=data["region"], endpoint_url=data["dynamodb_endpoint"],
                          aws_access_key_id="testing", aws_secret_access_key="testing",
                          aws_session_token="testing")
    games = []
    for table in data["tables"].values():
        for page in client.get_paginator("scan").paginate(TableName=table, ConsistentRead=True):
            for item in page["Items"]:
                if item.get("sk", {}).get("S") == "GAME":
                    games.append(from_item(item))
    return games


def replay_problems(item: dict[str, Any], view: dict[str, Any] | None) -> list[str]:
    """Replay one stored game through ``connect6.rules`` (not through the service's own model) and
    compare it with itself and with the game view the API answers. An empty list: all consistent."""
    from connect6.records import parse_label, split_labels
    from connect6.rules import IllegalMove, Position

    problems: list[str] = []
    size = int(item.get("board_size", 15))
    position = Position(size)
    turns = [t for t in str(item.get("turns") or "").split(";") if t]
    for number, encoded in enumerate(turns, start=1):
        stones, offered, _talk, _at, *_draw = encoded.split("|")  # a fifth field: a draw mark
        played = split_labels(offered) if offered else split_labels(stones)
        try:
            points = [parse_label(label, size) for label in played]
            if len(points) < position.stones_to_place:  # a winning first stone stored alone
                points.append(next(p for p in range(size * size) if position.is_empty(p) and p not in points))
            position.play(points)
        except (IllegalMove, ValueError) as error:
            problems.append(f"turn {number} ({encoded.split('|')[0]}) is illegal: {error}")
            return problems
    status = item.get("status")
    seats = item.get("seats") or []
    if int(item.get("turn", -1)) != len(turns):
        problems.append(f"turn counter {item.get('turn')} but {len(turns)} turns stored")
    if position.winner is not None:
        if status != "completed" or item.get("winner") != position.winner.value:
            problems.append(f"the rules say {position.winner.value} made six; stored: {status}, "
                            f"winner {item.get('winner')}")
        else:
            line = {parse_label(label, size) for label in item.get("winning_line") or []}
            if len(line) < 6 or not line <= set(position.stones(position.winner)):
                problems.append(f"the stored winning line {item.get('winning_line')} "
                                "is not six of the winner's stones")
    elif position.draw:
        if status != "draw":
            problems.append(f"the board is full; stored status {status}")
    elif status == "completed" and item.get("end_reason") not in ("resigned", "time"):  # v1.2: on time
        problems.append(f"completed ({item.get('end_reason')}) without six on the board")
    elif status == "draw" and item.get("end_reason") != "agreed":
        problems.append(f"draw ({item.get('end_reason')}) on a board that is not full")
    states = [s.get("state") for s in seats]
    if status in ("in_progress", "completed", "draw") and states != ["taken", "taken"]:
        problems.append(f"{status} with seats {states}")
    if status == "waiting_for_players" and turns:
        problems.append("moves in a game that has not started")
    if view is not None:
        expected = {"status": status, "move_count": len(turns), "board": position.board_rows(),
                    "stones_placed": position.stone_count}
        for key, value in expected.items():
            if view.get(key) != value:
                problems.append(f"the API reports {key} = {view.get(key)!r}, the table replays to {value!r}")
    return problems


def check_all_games(base_url: str, *, workers: int = 8) -> tuple[int, list[str]]:
    """Every stored game replayed and compared with ``GET /v1/games/{id}/board``: (games, problems)."""
    from concurrent.futures import ThreadPoolExecutor

    games = stored_games(base_url)

    def one(item: dict[str, Any]) -> list[str]:
        reply = call(base_url, "GET", f"/v1/games/{item['game_id']}/board")
        view = reply.parsed if reply.status == 200 else None
        problems = replay_problems(item, view)
        if reply.status != 200:
            problems.append(f"GET board answered {reply.describe()}")
        return [f"{item['game_id']}: {p}" for p in problems]

    with ThreadPoolExecutor(workers) as pool:
        found = [p for problems in pool.map(one, games) for p in problems]
    return len(games), found

