"""The local server over real HTTP: start-up, a whole game against the computer, an invitation,
the board's ETag, the merged OpenAPI document, the sweeper's timer and a clean stop."""

from __future__ import annotations

import json
import re
import signal
import xml.etree.ElementTree as ET

import pytest

from connect6.records import point_label
from tests.e2e.harness import ROOT, new_game_id
from tools.local.client import LocalServer, start_server

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]


def create_run(server: LocalServer, game_id: str, name: str = "E2E club") -> dict:
    settings = {"game_name": name, "allow_computer_opponents": True}
    reply = server.request("PUT", f"/v1/games/{game_id}", settings)
    assert reply.status == 201, reply.text
    return reply.json


def empty_points(board: list[str]) -> list[str]:
    """Labels of the empty points, bottom row first, left to right."""
    size = len(board)
    out = []
    for top, row in enumerate(board):
        for col, ch in enumerate(row):
            if ch == ".":
                out.append(point_label((size - 1 - top) * size + col, size))
    return sorted(out, key=lambda label: (int(re.sub(r"\D", "", label)), label))


def test_start_up_prints_routes_and_the_time_to_the_first_answer(server):
    # Given the server the session started
    ready = server.wait_for_line("ready in", timeout=1)
    # Then it printed the time to its first answered request, and every route of the template
    seconds = float(re.search(r"ready in ([\d.]+) s", ready).group(1))
    assert 0 < seconds < 60
    assert "-> 404" in ready or "-> 200" in ready
    assert any("/v1/games/{game_id}/players/{player_id}/moves" in line for line in server.lines)


def test_a_whole_game_against_the_computer(server):
    # Given a run and a human who asks for a computer opponent
    game_id = new_game_id("vs-cpu")
    create_run(server, game_id)
    joined = server.request("POST", f"/v1/games/{game_id}/players", {
        "name": "Ana", "email": "ana@example.com", "opponent": {"kind": "computer", "level": "easy"}})
    assert joined.status == 201, joined.text
    player = joined.json["player_id"]
    assert joined.json["game"]["status"] == "in_progress"
    # When Ana plays whatever is free, bottom-left first, until the game ends
    last = None
    for _ in range(120):
        sheet = server.request("GET", f"/v1/games/{game_id}/players/{player}/move-sheet")
        assert sheet.status == 200, sheet.text
        sheet_data = sheet.json
        if sheet_data["status"] != "in_progress":
            break
        assert sheet_data["your_turn"] is True  # the computer has always replied already
        stones = empty_points(sheet_data["board"])[: sheet_data["stones_to_place"]]
        body = {"move_number": sheet_data["move_number"], "stones": stones, "table_talk": None}
        move = server.request("POST", f"/v1/games/{game_id}/players/{player}/moves", body)
        assert move.status == 200, move.text
        last = move.json
        assert last["stones_placed"] == stones[: len(last["stones_placed"])]
        if last["status"] == "in_progress":
            assert last["computer_reply"] is not None
    else:
        pytest.fail("the game did not end in 120 turns")
    # Then it finished, with a winner and a winning line, on every read path
    assert last is not None and last["status"] in ("completed", "draw")
    view = server.request("GET", f"/v1/games/{game_id}/board").json
    assert view["status"] == last["status"]
    recap = server.request("GET", f"/v1/games/{game_id}/players/{player}/recap")
    assert recap.status == 200, recap.text
    recap_data = recap.json
    assert recap_data["result"] in ("won", "lost", "draw")
    assert recap_data["record"].startswith("1.")
    if view["status"] == "completed":
        assert len(view["winning_line"]) >= 6
        svg = server.request("GET", f"/v1/games/{game_id}/board.svg", headers={"Accept": "image/svg+xml"})
        assert svg.status == 200 and "svg" in svg.headers["content-type"]
        root = ET.fromstring(svg.body)
        marks = root.findall(".//{http://www.w3.org/2000/svg}circle[@class='win-mark']")
        assert {m.attrib["data-point"] for m in marks} == set(view["winning_line"])


def test_an_invitation_from_link_to_seat(server):
    # Given Ana joins and invites Ben
    game_id = new_game_id("invite")
    create_run(server, game_id)
    joined = server.request("POST", f"/v1/games/{game_id}/players", {
        "name": "Ana", "email": "ana@example.com",
        "opponent": {"kind": "invite", "name": "Ben", "email": "ben@example.com", "note": "Rematch <b>?"}})
    assert joined.status == 201, joined.text
    url = joined.json["invite"]["url"]
    assert url.startswith(server.base_url + "/v1/invites/")
    # When the link is opened (twice, as a mail scanner would), nothing changes
    for _ in range(2):
        page = server.request("GET", url, headers={"Accept": "text/html"})
        assert page.status == 200 and page.headers["content-type"].startswith("text/html")
        assert "Ana" in page.text and "Rematch &lt;b&gt;?" in page.text and "<b>?" not in page.text
    info = server.request("GET", url)
    assert info.status == 200 and info.json["inviter_name"] == "Ana"
    sheet = server.request("GET", f"/v1/games/{game_id}/join-sheet").json
    assert sheet["open_seats"] == 0
    # When Ben redeems it, the game starts; a second redemption is refused; unknown links are 404
    redeemed = server.request("POST", url, {"name": "Ben"})
    assert redeemed.status == 201, redeemed.text
    assert redeemed.json["game"]["status"] == "in_progress"
    again = server.request("POST", url, {"name": "Ben"})
    assert again.status == 409 and again.json["error"]["code"] == "invite_already_used"
    unknown = server.request("GET", "/v1/invites/not-a-real-token")
    assert unknown.status == 404 and unknown.json["error"]["code"] == "invite_not_found"


def test_the_board_answers_304_to_its_own_etag(server):
    game_id = new_game_id("etag")
    create_run(server, game_id)
    first = server.request("GET", f"/v1/games/{game_id}/board")
    assert first.status == 200 and first.headers.get("etag")
    etag = first.headers["etag"]
    again = server.request("GET", f"/v1/games/{game_id}/board", headers={"If-None-Match": etag})
    assert again.status == 304 and again.body == b""


def test_openapi_documents_every_route_of_the_template(server):
    from tools.local import samlocal

    doc = server.request("GET", "/v1/openapi.json").json
    assert doc["openapi"].startswith("3.")
    service = samlocal.Service(ROOT / "template.yaml", "http://127.0.0.1:9", verbose=False)
    for route in service.routes:
        operation = doc["paths"][route.path][route.method.lower()]
        assert operation["security"] == ([{"sigv4": []}] if route.auth == "AWS_IAM" else [])
        assert "not described by its resolver" not in operation.get("summary", ""), route.key
    assert doc["components"]["schemas"], "the resolvers' pydantic models are in the document"


def test_docs_openapi_json_is_the_served_document(server):
    # Given the document `make openapi` wrote into docs/
    written = json.loads((ROOT / "docs" / "openapi.json").read_text(encoding="utf-8"))
    # When the running server describes itself
    served = server.request("GET", "/v1/openapi.json").json
    # Then they are the same but for the server's own address (run `make openapi` after changing a route)
    assert served["servers"] == [{"url": server.base_url}] and written["servers"] == [{"url": "/"}]
    assert {**served, "servers": None} == {**written, "servers": None}


def test_unknown_routes_are_404_like_api_gateway(server):
    reply = server.request("GET", "/v2/nothing")
    assert reply.status == 404 and reply.json == {"message": "Not Found"}


def test_the_sweeper_fires_on_its_timer(server):
    line = server.wait_for_line("SCHEDULE ExpireInvitesFunction", timeout=15)
    assert "failed" not in line


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_stops_cleanly_on_signals(sig):
    srv = start_server()
    assert srv.request("GET", "/v1/openapi.json").status == 200
    assert srv.stop(sig) == 0
    srv.wait_for_line("stopped", timeout=5)
    assert "Traceback" not in srv.output()
