"""tools/drivers/race.py and tools/drivers/load.py at a small size against a local server of their
own: every race has exactly one winner, nobody gets a 5xx or a reset connection, every stored game replays."""

from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]


def test_race_five_rounds_every_invariant_holds(capsys: pytest.CaptureFixture[str]) -> None:
    from tools.drivers import race

    # When five rounds of every race run (the two clock races of v1.2 among them), 20 requests at
    # once, then 300 connections at once
    status = race.main(["--rounds", "5", "--width", "20", "--connections", "300"])
    out = capsys.readouterr().out
    # Then every race ran five times and held every time; the games replay; no connection was lost
    assert status == 0, out
    rows = re.findall(r"^(.+?)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+\dxx", out, re.M)
    assert len(rows) == 8, out
    assert {"move vs time-out sweep", "pause vs move"} <= {name.strip() for name, *_ in rows}, out
    assert all((rounds, held, violated) == ("5", "5", "0") for _, rounds, _, held, violated in rows), out
    games = int(re.search(r"replay: (\d+) stored games", out).group(1))
    assert games == 36 and "0 inconsistencies" in out, out  # 7 games a round, and the server's first game
    assert "connections: 300 opened at once: answered 300" in out, out


def test_load_plays_every_game_to_the_end_without_errors(capsys: pytest.CaptureFixture[str]) -> None:
    from tools.drivers import load

    # When six games are played at once, three against the computer and three through invitations
    status = load.main(["--games", "6", "--seed", "7"])
    out = capsys.readouterr().out
    # Then all six finished, nothing failed, and the figures are printed per route
    assert status == 0, out
    finished = re.search(r"^games: (.+)$", out, re.M).group(1)
    assert sum(int(n) for n in re.findall(r"(?:completed|draw) (\d+)", finished)) == 6, out
    assert re.search(r"turns applied: \d+ \([\d.]+ moves/s\)", out) and "errors: 0" in out, out
    for route in ("POST …/moves (+ computer reply)", "POST …/moves", "POST /v1/invites/{token}"):
        assert re.search(rf"^{re.escape(route)}\s+\d+\s+[\d.]+\s+[\d.]+", out, re.M), (route, out)
