"""End-to-end fixtures: the local server as a subprocess on a free port, an HTTP client for it,
and headless Chromium (Debian's /usr/bin/chromium) driven by Playwright."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.harness import CHROMIUM, CHROMIUM_ARGS
from tools.local.client import LocalServer, start_server


@pytest.fixture(scope="session")
def server() -> Iterator[LocalServer]:
    srv = start_server("--sweep-seconds", "2")
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is absent (install Debian's chromium: apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh context (no cookies, cache or storage from other tests) at phone-ish desktop width."""
    context = browser.new_context(viewport={"width": 900, "height": 1100}, device_scale_factor=1)
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    yield pg
    context.close()


@pytest.fixture
def screenshot_dir(tmp_path: Path) -> Path:
    """Where screenshots go: $E2E_SCREENSHOT_DIR if set (to look at them), else a temp folder."""
    target = Path(os.environ.get("E2E_SCREENSHOT_DIR") or tmp_path)
    target.mkdir(parents=True, exist_ok=True)
    return target
