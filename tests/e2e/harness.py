"""End-to-end helpers: where headless Chromium is, and unique game ids. The local server, its
client and the one ``Reply`` are ``tools.local.client``'s (``start_server``, ``LocalServer``)."""

from __future__ import annotations

import os
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]

_counter = iter(range(1_000_000))


def new_game_id(prefix: str) -> str:
    return f"{prefix}-{os.getpid()}-{int(time.time() * 1000) % 10_000_000}-{next(_counter)}"
