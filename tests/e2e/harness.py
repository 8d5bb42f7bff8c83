"""End-to-end helpers: the local server as a subprocess on a free port and an HTTP client for it."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
sys.path.insert(0, str(ROOT / "tools"))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def missing_handlers() -> list[str]:
    """Handler files template.yaml names that do not exist (yet)."""
    from tools.local.samlocal import load_template

    template = load_template(ROOT / "template.yaml")
    globals_fn = (template.get("Globals") or {}).get("Function") or {}
    missing = []
    for res in template["Resources"].values():
        if res.get("Type") != "AWS::Serverless::Function":
            continue
        props = {**globals_fn, **(res.get("Properties") or {})}
        module = str(props["Handler"]).rpartition(".")[0].replace(".", "/") + ".py"
        file = ROOT / props["CodeUri"] / module
        if not file.is_file():
            missing.append(str(file.relative_to(ROOT)))
    return missing


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")


@dataclass
class LocalServer:
    process: subprocess.Popen[str]
    base_url: str
    lines: list[str] = field(default_factory=list)

    def output(self) -> str:
        return "\n".join(self.lines)

    def wait_for_line(self, needle: str, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.lines):
                if needle in line:
                    return line
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError(f"no line with {needle!r} from the local server; output:\n{self.output()}")

    def request(self, method: str, path: str, body: Any = None, *, headers: dict[str, str] | None = None,
                form: dict[str, str] | None = None) -> Reply:
        data = None
        sent = {"Accept": "application/json", **(headers or {})}
        if body is not None:
            data = json.dumps(body).encode()
            sent.setdefault("Content-Type", "application/json")
        elif form is not None:
            from urllib.parse import urlencode

            data = urlencode(form).encode()
            sent.setdefault("Content-Type", "application/x-www-form-urlencoded")
        url = path if path.startswith("http") else self.base_url + path
        req = urllib.request.Request(url, data=data, method=method, headers=sent)
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                return Reply(resp.status, {k.lower(): v for k, v in resp.headers.items()}, resp.read())
        except urllib.error.HTTPError as error:
            return Reply(error.code, {k.lower(): v for k, v in error.headers.items()}, error.read())

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 20) -> int:
        if self.process.poll() is None:
            self.process.send_signal(sig)
        return self.process.wait(timeout)


def start_server(*extra: str) -> LocalServer:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env["PYTHONUNBUFFERED"] = "1"
    process = subprocess.Popen(
        [sys.executable, "-m", "tools.local.local_api", "--port", str(port), *extra],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1, env=env,
    )
    server = LocalServer(process, f"http://127.0.0.1:{port}")

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            server.lines.append(line.rstrip("\n"))

    threading.Thread(target=pump, daemon=True).start()
    try:
        server.wait_for_line("ready in", timeout=60)
    except AssertionError:
        server.stop(signal.SIGKILL)
        raise
    return server


_counter = iter(range(1_000_000))


def new_game_id(prefix: str) -> str:
    return f"{prefix}-{os.getpid()}-{int(time.time() * 1000) % 10_000_000}-{next(_counter)}"
