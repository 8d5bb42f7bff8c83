"""The local server as strict as API Gateway and DynamoDB where a client can tell: methods API
Gateway does not route are 404, every function takes requests at once (each answer is its own
request's), a burst of connections is accepted, the sweeper fires on demand with its clock ahead,
and no log line carries an invitation token."""

from __future__ import annotations

import json
import socket
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.e2e.harness import new_game_id
from tools.local.client import LocalServer, start_server

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]


def raw_request(server: LocalServer, text: str) -> bytes:
    host, port = server.base_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.sendall(text.encode())
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


@pytest.mark.parametrize("method", ["TRACE", "QUERY", "BREW", "CONNECT"])
def test_methods_api_gateway_does_not_route_are_404_not_501(server: LocalServer, method: str) -> None:
    answer = raw_request(server, f"{method} /v1/games/x/board HTTP/1.1\r\nHost: local\r\n"
                                 "Connection: close\r\n\r\n")
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 404"), head
    assert json.loads(body) == {"message": "Not Found"}


def test_one_function_answers_many_requests_at_once_each_with_its_own_answer(server: LocalServer) -> None:
    # Given 24 runs (all served by the join function)
    ids = [new_game_id(f"own-{i}") for i in range(24)]
    # When they are created and then read, 24 requests at a time
    with ThreadPoolExecutor(len(ids)) as pool:
        created = list(pool.map(lambda g: server.request(
            "PUT", f"/v1/games/{g}", {"game_name": f"name of {g}"}), ids))
        sheets = list(pool.map(lambda g: server.request("GET", f"/v1/games/{g}/join-sheet"), ids))
    # Then every answer is about the request it answers
    assert [reply.status for reply in created] == [201] * len(ids)
    assert [reply.json["game_id"] for reply in created] == ids
    assert [reply.json["game_name"] for reply in sheets] == [f"name of {g}" for g in ids]


def test_a_burst_of_connections_is_accepted_none_reset(server: LocalServer) -> None:
    host, port = server.base_url.removeprefix("http://").split(":")
    barrier = threading.Barrier(300)
    outcomes: list[str] = []

    def connect() -> None:
        barrier.wait()
        try:
            with socket.create_connection((host, int(port)), timeout=60) as sock:
                sock.sendall(b"GET /v1/nothing HTTP/1.1\r\nHost: local\r\nConnection: close\r\n\r\n")
                outcomes.append("ok" if sock.recv(12).startswith(b"HTTP/1.1 404") else "bad")
        except OSError as error:
            outcomes.append(type(error).__name__)

    threads = [threading.Thread(target=connect) for _ in range(300)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert outcomes.count("ok") == 300, sorted(set(outcomes))


def test_the_sweeper_runs_on_demand_with_its_clock_ahead(server: LocalServer) -> None:
    # Given an invitation with its 24-hour hold
    game_id = new_game_id("sweep")
    assert server.request("PUT", f"/v1/games/{game_id}", {"game_name": "Sweep",
                                                          "allow_computer_opponents": True}).status == 201
    joined = server.request("POST", f"/v1/games/{game_id}/players", {
        "name": "Ana", "email": "ana@example.com",
        "opponent": {"kind": "invite", "name": "Ben", "email": "ben@example.com"}})
    url = joined.json["invite"]["url"]
    # When the sweeper fires now, and then as if 25 hours had passed
    now = server.request("POST", "/_local/sweep")
    later = server.request("POST", "/_local/sweep?shift_seconds=90000")
    # Then only the second releases the seat (the one sweep also moves legacy holds and sweeps the
    # clocks: none here), and the clock stays moved on for every later request (v1.2)
    idle = {"released": 0, "legacy_holds_moved": 0, "timed_out": 0, "reminded": 0}
    assert now.status == 200 and [r["result"] for r in now.json["results"]] == [idle]
    assert later.status == 200 and later.json["results"][0]["result"]["released"] >= 1
    offset = now.json["clock"]["offset_seconds"]
    assert later.json["clock"]["offset_seconds"] == offset + 90000
    assert server.request("GET", "/_local/info").json["clock"]["offset_seconds"] == offset + 90000
    # A shift that would move the clock back, or is not a number of seconds, is refused
    for bad in ("-1", "nan", "inf", "x", "1e12"):
        assert server.request("POST", f"/_local/sweep?shift_seconds={bad}").status == 422, bad
    assert server.request("GET", f"/v1/games/{game_id}/join-sheet").json["open_seats"] == 1
    assert server.request("POST", url, {}).json["error"]["code"] == "invite_expired"
    # And the local-only routes are in neither the template's routes nor the OpenAPI document
    doc = server.request("GET", "/v1/openapi.json").json
    assert not [path for path in doc["paths"] if path.startswith("/_local")]
    assert server.request("GET", "/_local/sweep").status == 404


def test_no_log_line_carries_an_invitation_token() -> None:
    # Given the server with every log on (the handlers' own, Powertools', moto's)
    srv = start_server("--verbose", "--sweep-seconds", "1")
    try:
        game_id = new_game_id("secret")
        srv.request("PUT", f"/v1/games/{game_id}", {"game_name": "Secret", "allow_computer_opponents": True})
        # When an invitation is made, opened (HTML and JSON), redeemed, redeemed again and swept
        joined = srv.request("POST", f"/v1/games/{game_id}/players", {
            "name": "Ana", "email": "ana@example.com",
            "opponent": {"kind": "invite", "name": "Ben", "email": "ben@example.com"}})
        url = joined.json["invite"]["url"]
        token = url.rsplit("/", 1)[1]
        assert srv.request("GET", url, headers={"Accept": "text/html"}).status == 200
        assert srv.request("GET", url).status == 200
        assert srv.request("POST", url, form={"name": "Ben"}).status == 201
        assert srv.request("POST", url, {"name": "Ben"}).status == 409
        assert srv.request("POST", url + "/extra").status == 404
        srv.request("POST", "/_local/sweep?shift_seconds=90000")
        srv.wait_for_line(f"POST   /v1/invites/{token[:4]}…", timeout=10)
    finally:
        srv.stop()
    # Then the log shows the requests with the token cut to four characters, and never the token
    output = srv.output()
    assert f"/v1/invites/{token[:4]}… -> 201" in output
    assert token not in output
    assert token[4:12] not in output
