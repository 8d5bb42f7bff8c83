"""v1.2 through the handlers on moto: time_control on PUT (422 outside sense, 409 on another), the
clock and paused fields, pause/resume/cancel (platform routes, idempotent), 409 game_paused, and the
scheduled sweep storing a loss on time with one game_finished."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from connect6.api import runtime
from tests.integration.conftest import Published
from tests.integration.harness import Api, FakeContext, handler_module, scheduled_functions, service

RUN = "/v1/games/run-t"
LG = {"kind": "bank", "initial_hours": 240, "increment_hours": 36, "max_hours": 240}


class Now:
    def __init__(self) -> None:
        self.now = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def _timed(api: Api, control: dict[str, object]) -> tuple[str, str]:
    assert api.put(RUN, {"game_name": "Timed", "time_control": control}).status == 201
    ana = api.post(f"{RUN}/players", {"name": "Ana", "email": "ana@example.com"}).json["player_id"]
    ben = api.post(f"{RUN}/players", {"name": "Ben", "email": "ben@example.com"}).json["player_id"]
    return ana, ben


def test_time_control_is_validated_and_compared(api: Api) -> None:
    bad = api.put(RUN, {"game_name": "Timed", "time_control": {**LG, "max_hours": 100}})
    assert (bad.status, bad.error["code"], bad.error["field"]) == (422, "invalid_time_control",
                                                                  "time_control.max_hours")
    assert api.put(RUN, {"game_name": "Timed", "time_control": {"kind": "sundial"}}).status == 422
    assert api.get(f"{RUN}/board").status == 404  # a refused request changed nothing
    created = api.put(RUN, {"game_name": "Timed", "time_control": LG})
    assert created.status == 201 and created.json["clock"]["black_seconds"] == 240 * 3600
    assert created.json["paused"] is False
    assert api.put(RUN, {"game_name": "Timed", "time_control": LG}).status == 200
    assert api.put(RUN, {"game_name": "Timed"}).error["code"] == "conflict"
    untimed = api.put("/v1/games/run-u", {"game_name": "Untimed"})
    assert untimed.json["clock"] is None and untimed.json["paused"] is False


def test_pause_resume_cancel_and_the_move_refused(api: Api, aws: Published) -> None:
    now = Now()
    runtime.configure(colour_draw=lambda game: 1, clock=now)
    ana, _ = _timed(api, {"kind": "per_move", "hours": 24})
    sheet = api.get(f"{RUN}/players/{ana}/move-sheet").json
    assert sheet["clock"]["deadline"] == "2026-05-02T12:00:00Z" and sheet["paused"] is False
    paused = api.post(f"{RUN}/pause", headers={"Idempotency-Key": "p-1"})
    assert paused.status == 200 and paused.json["paused"] is True
    assert api.post(f"{RUN}/pause").json["paused"] is True
    refused = api.post(f"{RUN}/players/{ana}/moves", {"move_number": 1, "stones": ["h8"]})
    assert (refused.status, refused.error["code"]) == (409, "game_paused")
    now.now += timedelta(hours=48)
    resumed = api.post(f"{RUN}/resume")
    assert resumed.json["clock"]["deadline"] == "2026-05-04T12:00:00Z"
    cancelled = api.post(f"{RUN}/cancel")
    assert (cancelled.json["status"], cancelled.json["end_reason"], cancelled.json["winner"]) == (
        "cancelled", "cancelled", None)
    assert api.post(f"{RUN}/cancel").status == 200
    assert api.post(f"{RUN}/pause").error["code"] == "game_over"
    assert api.post("/v1/games/nope/pause").error["code"] == "game_not_found"
    types = [e["detail-type"] for e in aws.drain()]
    assert types.count("game_paused") == 1 and types.count("game_resumed") == 1
    assert types.count("game_finished") == 1


def test_the_scheduled_sweep_stores_a_loss_on_time_once(api: Api, aws: Published) -> None:
    now = Now()
    runtime.configure(colour_draw=lambda game: 1, clock=now)
    ana, _ben = _timed(api, {"kind": "per_move", "hours": 24})
    now.now += timedelta(hours=25)
    view = api.get(f"{RUN}/board").json
    assert (view["status"], view["end_reason"], view["winner"]["colour"]) == ("completed", "time", "white")
    late = api.post(f"{RUN}/players/{ana}/moves", {"move_number": 1, "stones": ["h8"]})
    assert late.error["code"] == "game_over"
    (name,) = scheduled_functions()
    (function,) = [f for f in service().functions if f.logical_id == name]
    sweeper = handler_module(function)
    first = sweeper.lambda_handler({"id": "s-1"}, FakeContext(function))
    second = sweeper.lambda_handler({"id": "s-2"}, FakeContext(function))
    assert (first["timed_out"], second["timed_out"]) == (1, 0)
    finished = aws.of_type("game_finished")
    assert len(finished) == 1 and finished[0]["end_reason"] == "time"
    reminders = aws.of_type("turn_reminder")
    assert [r["player_id"] for r in reminders] == []  # the game ended before any sweep reminded
