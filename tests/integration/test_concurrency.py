"""Races, for real: handlers in threads against moto in server mode on 127.0.0.1, so requests
really interleave at the database. Whatever the interleaving, exactly one write wins."""

from __future__ import annotations

import threading
import urllib.request
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
from moto.server import ThreadedMotoServer
from pytest_socket import socket_allow_hosts
from werkzeug.serving import make_server

from connect6.api import runtime
from tests.integration.conftest import aws_environment
from tests.integration.harness import (
    NOTHING_SWEPT,
    REGION,
    TEST_BUS,
    Api,
    FakeContext,
    create_table,
    handler_module,
    scheduled_functions,
)

ROUNDS = 6
START = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


class SerialMotoServer(ThreadedMotoServer):
    """moto in server mode answering one request at a time. DynamoDB applies each conditional write
    atomically per item; moto's threaded server checks the condition and writes without a lock, so
    two racing writes can both pass there. Serving requests one by one restores DynamoDB's
    guarantee, while the handlers still interleave freely between their reads and their writes."""

    def _server_entry(self) -> None:
        app = DomainDispatcherApplication(create_backend_app)
        self._server = make_server(self._ip_address, self._port, app, threaded=False)
        self._server_ready_event.set()
        self._server.serve_forever()


class ThreadClock:
    """Each thread may set its own 'now' (the invitee's and the sweeper's clocks differ)."""

    def __init__(self) -> None:
        self.local = threading.local()

    def __call__(self) -> datetime:
        return getattr(self.local, "now", START)

    def set(self, moment: datetime) -> None:
        self.local.now = moment


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch, socket_enabled: None) -> Iterator[ThreadClock]:
    socket_allow_hosts(["127.0.0.1"], allow_unix_socket=True)
    aws_environment(monkeypatch)
    moto = SerialMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    moto.start()
    host, port = moto.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    monkeypatch.setenv("AWS_ENDPOINT_URL_DYNAMODB", endpoint)
    monkeypatch.setenv("AWS_ENDPOINT_URL_EVENTBRIDGE", endpoint)
    _reset(endpoint)
    create_table(boto3.client("dynamodb", region_name=REGION))
    boto3.client("events", region_name=REGION).create_event_bus(Name=TEST_BUS)
    clock = ThreadClock()
    runtime.configure(clock=clock, colour_draw=lambda game: 1)
    try:
        yield clock
    finally:
        runtime.configure()
        _reset(endpoint)
        moto.stop()


def _reset(endpoint: str) -> None:
    """moto's server shares its state with every other moto in this process: start clean."""
    urllib.request.urlopen(urllib.request.Request(f"{endpoint}/moto-api/reset", method="POST"), timeout=10)


def _together(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls in threads released at the same instant; their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        barrier.wait()
        results[index] = call()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def _game(api: Api, game_id: str) -> tuple[str, str]:
    api.put(f"/v1/games/{game_id}", {"game_name": "Race", "allow_computer_opponents": True})
    players = f"/v1/games/{game_id}/players"
    ana = api.post(players, {"name": "Ana", "email": "ana@example.com"}).json["player_id"]
    ben = api.post(players, {"name": "Ben", "email": "ben@example.com"}).json["player_id"]
    assert api.post(f"{players}/{ana}/moves", {"move_number": 1, "stones": ["h8"]}).status == 200
    return ana, ben


def test_two_submissions_of_one_turn_exactly_one_lands(server: ThreadClock) -> None:
    setup, left, right = Api(), Api(instance="-left"), Api(instance="-right")
    for round_ in range(ROUNDS):
        game = f"race-{round_}"
        _ana, ben = _game(setup, game)
        path = f"/v1/games/{game}/players/{ben}/moves"
        first, second = _together(
            lambda path=path: left.post(path, {"move_number": 2, "stones": ["a1", "a2"]}),
            lambda path=path: right.post(path, {"move_number": 2, "stones": ["o15", "o14"]}))
        statuses = sorted([first.status, second.status])
        assert statuses == [200, 409], (first.text, second.text, setup.get(f"/v1/games/{game}/board").text)
        loser = first if first.status == 409 else second
        assert loser.error["code"] in ("stale_move", "not_your_turn")
        winner = first if first.status == 200 else second
        board = setup.get(f"/v1/games/{game}/board").json
        assert board["move_count"] == 2 and board["last_move"]["stones"] == winner.json["stones_placed"]


def test_the_same_submission_twice_at_once_lands_once(server: ThreadClock) -> None:
    body = {"move_number": 2, "stones": ["a1", "a2"]}
    setup, left, right = Api(), Api(instance="-left"), Api(instance="-right")
    for round_ in range(ROUNDS):
        game = f"twin-{round_}"
        _ana, ben = _game(setup, game)
        path = f"/v1/games/{game}/players/{ben}/moves"
        first, second = _together(lambda path=path: left.post(path, body),
                                  lambda path=path: right.post(path, body))
        assert first.status == second.status == 200, (first.text, second.text)
        assert first.json == second.json
        assert setup.get(f"/v1/games/{game}/board").json["move_count"] == 2


def test_redemption_racing_the_sweeper_exactly_one_wins(server: ThreadClock) -> None:
    setup, invitee = Api(), Api(instance="-invitee")
    (function,) = scheduled_functions()
    sweeper = handler_module(function)
    outcomes = []
    for round_ in range(ROUNDS):
        game = f"hold-{round_}"
        server.set(START + timedelta(minutes=round_))
        setup.put(f"/v1/games/{game}", {"game_name": "Race", "allow_computer_opponents": True})
        joined = setup.post(f"/v1/games/{game}/players", {
            "name": "Ana", "email": "ana@example.com",
            "opponent": {"kind": "invite", "name": "Ben", "email": "ben@example.com"}})
        expires = datetime.fromisoformat(joined.json["invite"]["expires_at"].replace("Z", "+00:00"))
        path = joined.json["invite"]["url"].removeprefix("https://api.example.test")

        def redeem(path: str = path, expires: datetime = expires) -> Any:
            server.set(expires - timedelta(seconds=1))
            return invitee.post(path, {})

        def sweep(expires: datetime = expires) -> Any:
            server.set(expires + timedelta(seconds=1))
            return sweeper.lambda_handler({"source": "aws.scheduler"}, FakeContext())

        redeemed, swept = _together(redeem, sweep)
        won_by_invitee = redeemed.status == 201
        assert won_by_invitee != (swept["released"] >= 1), (redeemed.text, swept)
        if not won_by_invitee:
            assert redeemed.error["code"] == "invite_expired"
        server.set(expires + timedelta(seconds=2))
        view = setup.get(f"/v1/games/{game}/board").json
        assert view["status"] == ("in_progress" if won_by_invitee else "waiting_for_players")
        assert view["seats"][1]["state"] == ("taken" if won_by_invitee else "open")
        # The sweeper has nothing left to do either way
        assert sweeper.lambda_handler({"source": "aws.scheduler"}, FakeContext()) == NOTHING_SWEPT
        outcomes.append(won_by_invitee)


def test_two_joins_for_the_last_seat_exactly_one_gets_it(server: ThreadClock) -> None:
    setup, left, right = Api(), Api(instance="-left"), Api(instance="-right")
    for round_ in range(ROUNDS):
        game = f"/v1/games/seat-{round_}"
        created = _together(lambda game=game: left.put(game, {"game_name": "Race"}),
                            lambda game=game: right.put(game, {"game_name": "Race"}))
        assert sorted(reply.status for reply in created) == [200, 201]
        setup.post(f"{game}/players", {"name": "Ana", "email": "ana@example.com"})
        first, second = _together(
            lambda game=game: left.post(f"{game}/players", {"name": "Ben", "email": "ben@example.com"}),
            lambda game=game: right.post(f"{game}/players", {"name": "Cy", "email": "cy@example.com"}))
        assert sorted([first.status, second.status]) == [201, 409]
        loser = first if first.status == 409 else second
        assert loser.error["code"] == "no_open_seat"
        view = setup.get(f"{game}/board").json
        assert view["status"] == "in_progress" and [s["state"] for s in view["seats"]] == ["taken", "taken"]
