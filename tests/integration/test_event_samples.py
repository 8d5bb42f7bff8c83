"""Every sample event in events/ runs through its handler (the function template.yaml routes it
to), in order, on one table: each gets the status the contract gives it. The stream sample (what
Lambda hands the publish-events function: game writes with their outbox) publishes its events."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from connect6.api import runtime
from tests.integration.conftest import Published
from tests.integration.harness import (
    NOTHING_SWEPT,
    ROOT,
    Api,
    FakeContext,
    handler_module,
    routes,
    scheduled_functions,
    template,
)
from tools.local.samlocal.streams import matches, pump_options, stream_sources

EVENTS = ROOT / "events"
IDS = ["pl-ana-0000000000000000000001", "inv-0000000000000000000000002", "pl-ben-0000000000000000000003"]
TOKEN = "sample-invite-token-0000000000000000000000000000"

EXPECTED = {
    "01_put_run": 201, "02_join_sheet": 200, "03_join": 201, "04_invite_get": 200,
    "05_invite_redeem": 201, "06_move_sheet": 200, "07_move": 200, "08_board": 200, "09_board_svg": 200,
    "09a_moves": 200, "09b_board_svg_move": 200,
    # v1.2: HEAD on the public pages answers as GET, without the body
    "04a_invite_head": 200, "08a_board_head": 200, "09c_board_svg_head": 200, "09d_moves_head": 200,
    # The story is a game between two people: hints and undo are refused there (409)
    "10_hint": 409, "11_draw": 200, "12_resign": 200, "13_recap": 200, "14_record": 200, "17_undo": 409,
    # v1.2: Ana's play link (her sheet as a page; a hint asked through it is refused between people and
    # sent back to the page), the platform pausing and resuming the run, and a cancel after the end
    "06a_play_get": 200, "06b_play_post": 303, "06c_play_head": 200, "11a_pause": 200, "11b_resume": 200,
    "18_cancel": 409,
}


def _samples() -> list[Path]:
    return sorted(EVENTS.glob("*.json"))


def test_every_route_and_the_schedule_have_a_sample() -> None:
    keys = {json.loads(p.read_text()).get("routeKey") for p in _samples()}
    assert {f"{r.method} {r.path}" for r in routes()} <= keys
    assert any(json.loads(p.read_text()).get("source") == "aws.scheduler" for p in _samples())
    assert any("Records" in json.loads(p.read_text()) for p in _samples())


def test_every_handler_runs_on_its_sample(aws: Published) -> None:
    ids = itertools.cycle(IDS)
    runtime.configure(colour_draw=lambda game: 1, id_factory=lambda: next(ids), token_factory=lambda: TOKEN)
    api = Api()
    for path in _samples():
        event = json.loads(path.read_text())
        if "Records" in event:
            continue  # the stream sample: below
        if event.get("source") == "aws.scheduler":
            (function,) = scheduled_functions()
            result = handler_module(function).lambda_handler(event, FakeContext())
            assert result == NOTHING_SWEPT
            continue
        route, _params = api.route(event["requestContext"]["http"]["method"], event["rawPath"])
        assert event["routeKey"] == f"{route.method} {route.path}"
        result = handler_module(route.function).lambda_handler(event, FakeContext())
        assert result["statusCode"] == EXPECTED[path.stem], (path.name, result.get("body"))
        if route.method == "HEAD":
            assert result["body"] == "" and result["headers"].get("Content-Type"), path.name
    # The samples told a whole story: Ana invited Ben, opened offering a draw (Ben declined), the
    # platform paused and resumed the run, then Ana resigned
    events = sorted(e["detail-type"] for e in aws.drain())
    assert events == ["draw_offered", "game_finished", "game_paused", "game_resumed", "game_started",
                      "invite_redeemed", "turn_ready", "turn_ready"]


def test_the_stream_sample_publishes_its_outbox(aws: Published) -> None:
    # Given the stream sample (two game writes with their events), as the template's filter passes it
    (path,) = [p for p in _samples() if "Records" in json.loads(p.read_text())]
    event = json.loads(path.read_text())
    ((function, properties),) = stream_sources(template())
    (pattern,) = pump_options(properties)["filters"]
    assert all(matches(json.loads(pattern), record) for record in event["Records"])
    # When the publish-events function handles it
    result = handler_module(function).lambda_handler(event, FakeContext())
    # Then nothing failed, and the events went out in order with their ids
    assert result == {"batchItemFailures": []}
    delivered = [(e["detail-type"], e["detail"]["event_id"]) for e in aws.drain()]
    outbox = [json.loads(r["dynamodb"]["NewImage"]["outbox"]["S"]) for r in event["Records"]]
    assert delivered == [(e["type"], e["id"]) for change in outbox for e in change]
    assert [t for t, _id in delivered] == ["invite_redeemed", "game_started", "turn_ready", "turn_ready"]
