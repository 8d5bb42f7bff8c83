"""The play link (contract v1.2, "Playing from a link", "Same-device games") through the handlers on
moto: the link in the join and redemption answers, the page on the player's turn and off it, every
form action and its refusals (303 back to the page; a refusal changes nothing), resign's
confirmation, an unknown link, same-device games, and the token in no event, log line or public
response."""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import parse_qs, urlsplit

import boto3
import pytest

from tests.integration.conftest import Published
from tests.integration.harness import REGION, TEST_TABLE, Api

RUN = "/v1/games/run-42"
INVITING = {"name": "Ana", "email": "ana@example.com",
            "opponent": {"kind": "invite", "name": "Ben", "email": "ben@example.com"}}


def _item(pk: str = "GAME#run-42", sk: str = "GAME") -> dict[str, Any]:
    table = boto3.resource("dynamodb", region_name=REGION).Table(TEST_TABLE)
    return dict(table.get_item(Key={"pk": pk, "sk": sk}).get("Item") or {})


def _path(url: str) -> str:
    return urlsplit(url).path


def _create(api: Api) -> None:
    assert api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True}).status == 201


def _against_computer(api: Api) -> tuple[str, str]:
    _create(api)
    joined = api.post(f"{RUN}/players", {"name": "Ana", "email": "ana@example.com",
                                         "opponent": {"kind": "computer", "level": "easy"}})
    assert joined.status == 201, joined.text
    return str(joined.json["player_id"]), _path(joined.json["play_url"])


def _same_device(api: Api) -> tuple[str, str]:
    _create(api)
    joined = api.post(f"{RUN}/players", {"name": "Ana", "email": "ana@example.com",
                                         "opponent": {"kind": "same_device", "name": "Ben"}})
    assert joined.status == 201, joined.text
    return str(joined.json["player_id"]), _path(joined.json["play_url"])


def _seen(api: Api, link: str) -> str:
    """The game version the page shows (its forms send it back as ``seen``)."""
    page = api.get(link).text
    return page.split('name="seen" value="', 1)[1].split('"', 1)[0] if 'name="seen"' in page else ""


def _answer(api: Api, link: str, *, page: bool = True, **form: str) -> dict[str, str]:
    """POST the play form as the page just opened would (with its ``seen``); the query of the 303's
    Location (the page to go back to)."""
    if page and "seen" not in form:
        form["seen"] = _seen(api, link)
    reply = api.post(link, form=form)
    assert reply.status == 303, (reply.status, reply.text)
    location = reply.headers["location"]
    assert location.startswith(link.rsplit("/", 1)[1])  # relative: back to the page itself
    return {k: v[-1] for k, v in parse_qs(urlsplit(location).query).items()}


def _free(sheet: dict[str, Any], count: int) -> list[str]:
    n = sheet["board_size"]
    middle = n // 2
    points = sorted(((r, c) for r in range(n) for c in range(n) if sheet["board"][r][c] == "."),
                    key=lambda rc: (abs(rc[0] - middle) + abs(rc[1] - middle), rc))
    return [f"{chr(97 + c)}{n - r}" for r, c in points[:count]]


# ---------------------------------------------------------------------- the link and the page
def test_join_answer_has_a_play_link_whose_page_is_the_move_sheet(api: Api) -> None:
    player, link = _against_computer(api)
    assert link.startswith("/v1/play/") and len(link.rsplit("/", 1)[1]) == 43  # 256 bits, base64url
    page = api.get(link, headers={"accept": "text/html"})
    assert page.status == 200 and page.headers["content-type"].startswith("text/html")
    policy = page.headers["content-security-policy"]
    assert "default-src 'none'" in policy and "unsafe-inline" not in policy
    assert 'id="move-form"' in page.text and 'value="hint"' in page.text and 'value="undo"' in page.text
    assert "Undo my last move (3 left)" in page.text and 'value="resign"' in page.text
    # No raw token is stored: only its hash, as the play index's key.
    token = link.rsplit("/", 1)[1]
    assert token not in str(_item())
    sheet = api.get(f"{RUN}/players/{player}/move-sheet").json
    assert sheet["hints_allowed"] is True and sheet["undos_left"] == 3


def test_a_replayed_join_shows_the_same_play_link(api: Api) -> None:
    _create(api)
    body = {"name": "Ana", "email": "ana@example.com", "opponent": {"kind": "computer", "level": "easy"}}
    first = api.post(f"{RUN}/players", body, headers={"idempotency-key": "join-1"})
    again = api.post(f"{RUN}/players", body, headers={"idempotency-key": "join-1"})
    assert again.headers.get("idempotent-replayed") == "true"
    assert again.text == first.text and first.json["play_url"]
    stored = boto3.resource("dynamodb", region_name=REGION).Table(TEST_TABLE).scan()["Items"]
    assert first.json["play_url"].rsplit("/", 1)[1] not in str(stored)


def test_a_move_from_the_page_is_played_with_the_computer_reply(api: Api) -> None:
    player, link = _against_computer(api)
    assert _answer(api, link, move_number="1", stone_1="h8") == {}
    sheet = api.get(f"{RUN}/players/{player}/move-sheet").json
    assert sheet["move_number"] == 3 and sheet["your_turn"]  # the computer replied
    page = api.get(link).text
    assert "Your move 3" in page and "Last move: 2. White" in page
    # The same form sent again (a double tap) changes nothing: it is the same move.
    assert _answer(api, link, move_number="1", stone_1="h8", page=False) == {}
    assert api.get(f"{RUN}/players/{player}/move-sheet").json["move_number"] == 3


@pytest.mark.parametrize(("form", "code"), [
    ({"move_number": "1", "stone_1": "z99"}, "illegal_move"),
    ({"move_number": "1", "stone_1": "h8", "stone_2": "h9"}, "illegal_move"),
    ({"move_number": "2", "stone_1": "h8"}, "stale_move"),
    ({"move_number": "1", "stone_1": "h8", "table_talk": "nonsense"}, "unknown_phrase"),
    ({"move_number": "1"}, "invalid_request"),
    ({"move_number": "1", "stone_1": "h8", "action": "teleport"}, "invalid_request"),
    ({"move_number": "1", "action": "undo"}, "nothing_to_undo"),
    ({"move_number": "1", "action": "accept_draw"}, "no_draw_offer"),
])
def test_a_refused_answer_shows_its_message_and_changes_nothing(api: Api, form: dict[str, str],
                                                                 code: str) -> None:
    _, link = _against_computer(api)
    before = _item()
    query = _answer(api, link, **form)
    assert query["refused"] == code
    assert _item() == before
    page = api.get(f"{link}?{'&'.join(f'{k}={v}' for k, v in query.items())}").text
    assert 'id="notice"' in page and 'role="alert"' in page


def test_an_occupied_point_names_the_stone_and_fills_the_form_again(api: Api) -> None:
    _, link = _against_computer(api)
    _answer(api, link, move_number="1", stone_1="h8")
    query = _answer(api, link, move_number="3", stone_1="h8", stone_2="a1")
    assert query["refused"] == "illegal_move" and query["value"] == "h8"
    page = api.get(f"{link}?refused=illegal_move&value=h8&stone_1=h8&stone_2=a1").text
    assert "h8 can&#39;t be played" in page or "h8 can't be played" in page
    assert 'value="a1"' in page


def test_hint_undo_and_resign_with_its_confirmation(api: Api, aws: Published) -> None:
    player, link = _against_computer(api)
    query = _answer(api, link, action="hint", move_number="1")
    stones = query["hint"].split(".")
    assert len(stones) == 1 and query["why"]
    page = api.get(f"{link}?hint={query['hint']}").text
    assert f"Hint: {stones[0]}" in page and f'value="{stones[0]}"' in page
    _answer(api, link, move_number="1", stone_1=stones[0])
    sheet = api.get(f"{RUN}/players/{player}/move-sheet").json
    free = _free(sheet, 2)
    _answer(api, link, move_number="3", stone_1=free[0], stone_2=free[1])
    # Undo twice from the same page (a double tap): one turn (and its reply) is taken back.
    seen = _seen(api, link)
    assert _answer(api, link, action="undo", move_number="5", seen=seen) == {"done": "undo"}
    assert _answer(api, link, action="undo", move_number="5", seen=seen) == {"done": "undo"}
    sheet = api.get(f"{RUN}/players/{player}/move-sheet").json
    assert sheet["move_number"] == 3 and sheet["undos_left"] == 2
    assert "Undo my last move (2 left)" in api.get(link).text
    # Resign asks first and changes nothing; the confirmation resigns; the page is the recap.
    before = _item()
    assert _answer(api, link, action="resign", move_number="3") == {"confirm": "resign"}
    assert _item() == before
    confirm = api.get(f"{link}?confirm=resign")
    assert 'value="resign_confirmed"' in confirm.text and "Computer (easy) wins" in confirm.text
    assert _answer(api, link, action="resign_confirmed", move_number="3") == {}
    recap = api.get(link)
    assert recap.status == 200 and "Good game, Ana" in recap.text and "resigned" in recap.text
    assert "Undos used" in recap.text
    assert [e["end_reason"] for e in aws.of_type("game_finished")] == ["resigned"]


def test_unknown_and_malformed_links_get_a_404_page(api: Api) -> None:
    _against_computer(api)
    for link in ("/v1/play/" + "A" * 43, "/v1/play/not%20a%20token", "/v1/play/x"):
        page = api.get(link, headers={"accept": "text/html"})
        assert page.status == 404 and 'data-code="play_link_not_found"' in page.text
        assert api.post(link, form={"action": "move"}).status == 404


# ---------------------------------------------------------------------- between people
def test_invitee_gets_a_play_link_and_answers_a_draw_offer_from_the_page(api: Api) -> None:
    _create(api)
    joined = api.post(f"{RUN}/players", INVITING)
    ana_link = _path(joined.json["play_url"])
    waiting = api.get(ana_link).text
    assert "The game starts when both seats are taken" in waiting and 'http-equiv="refresh"' in waiting
    invite = _path(joined.json["invite"]["url"])
    # A browser accepting the invitation lands on the accepted page, which has "Play now".
    accepted = api.post(invite, form={"name": ""}, headers={"accept": "text/html"})
    assert accepted.status == 303
    page = api.get(f"{invite}?accepted=1", headers={"accept": "text/html"}).text
    assert 'id="play-now"' in page
    play_now = page.split('id="play-now" href="', 1)[1].split('"', 1)[0]
    ben_link = "/v1/play/" + play_now.removeprefix("../play/")
    assert api.get(ben_link).status == 200
    # Ana (Black, seat 1) opens with a draw offer; Ben's page offers accept and decline.
    _answer(api, ana_link, move_number="1", stone_1="h8", offer_draw="true")
    ben_page = api.get(ben_link).text
    assert 'value="accept_draw"' in ben_page and 'value="decline_draw"' in ben_page
    assert 'value="hint"' not in ben_page and 'value="undo"' not in ben_page  # between people
    assert _answer(api, ben_link, action="decline_draw", move_number="2") == {"done": "decline_draw"}
    assert 'value="accept_draw"' not in api.get(ben_link).text
    assert _answer(api, ben_link, action="hint", move_number="2")["refused"] == "hints_not_allowed"
    assert _answer(api, ben_link, action="undo", move_number="2")["refused"] == "undo_not_allowed"
    # Off their turn the page follows the game by itself.
    ana_page = api.get(ana_link).text
    assert 'http-equiv="refresh"' in ana_page and "It is Ben&#39;s turn" in ana_page


def test_redemption_answer_has_the_invitees_play_link(api: Api) -> None:
    _create(api)
    joined = api.post(f"{RUN}/players", INVITING)
    redeemed = api.post(_path(joined.json["invite"]["url"]), {"name": "Ben"})
    assert redeemed.status == 201
    link = _path(redeemed.json["play_url"])
    assert link != _path(joined.json["play_url"])
    assert "Hello Ben" in api.get(link).text


# ---------------------------------------------------------------------- same device
def test_same_device_game_to_its_end(api: Api, aws: Published) -> None:
    ana, link = _same_device(api)
    view = api.get(f"{RUN}/board").json
    assert view["status"] == "in_progress"
    assert {view["black"]["name"], view["white"]["name"]} == {"Ana", "Ben"}
    assert "Ana to move (Black)" in api.get(link).text  # colour_draw: seat 1 plays Black
    _answer(api, link, move_number="1", stone_1="h8")
    page = api.get(link).text
    assert "Ben to move (White)" in page and 'value="hint"' not in page
    assert _answer(api, link, action="hint", move_number="2")["refused"] == "hints_not_allowed"
    assert api.get(f"{RUN}/players/{ana}/hint").status == 409
    # Undo takes back the last turn (Black's opening), not two.
    assert _answer(api, link, action="undo", move_number="2") == {"done": "undo"}
    assert "Ana to move (Black)" in api.get(link).text
    # Black builds a row on row 8, White plays apart on row 1: Black wins at move 7.
    turns = [("1", ["h8"]), ("2", ["a1", "c1"]), ("3", ["i8", "j8"]), ("4", ["e1", "g1"]),
             ("5", ["k8", "l8"]), ("6", ["i1", "k1"]), ("7", ["m8", "g8"])]
    for number, stones in turns:
        form = {"move_number": number, "stone_1": stones[0]}
        if len(stones) > 1:
            form["stone_2"] = stones[1]
        assert "refused" not in _answer(api, link, **form)
    recap = api.get(link).text
    assert "You won, Ana!" in recap and "six in a row" in recap
    started = aws.of_type("game_started")
    ready = aws.of_type("turn_ready")
    assert len(started) == 1 and {e["name"] for e in ready} == {"Ana", "Ben"}
    assert aws.of_type("game_finished")[0]["winner"]["name"] == "Ana"
    assert api.get(f"{RUN}/players/{ana}/recap").json["result"] == "won"


def test_same_device_needs_a_run_that_allows_opponents(api: Api) -> None:
    assert api.put(RUN, {"game_name": "Sunday club"}).status == 201
    joined = api.post(f"{RUN}/players", {"name": "Ana", "email": "ana@example.com",
                                         "opponent": {"kind": "same_device", "name": "Ben"}})
    assert joined.status == 422 and joined.json["error"]["code"] == "opponent_not_allowed"


# ---------------------------------------------------------------------- the token stays secret
def test_the_play_token_is_in_no_event_log_line_or_public_response(
        api: Api, aws: Published, caplog: pytest.LogCaptureFixture,
        capsys: pytest.CaptureFixture[str]) -> None:
    caplog.set_level(logging.DEBUG)
    _create(api)
    joined = api.post(f"{RUN}/players", INVITING)
    ana_link = _path(joined.json["play_url"])
    redeemed = api.post(_path(joined.json["invite"]["url"]), {"name": "Ben"})
    ben_link = _path(redeemed.json["play_url"])
    _answer(api, ana_link, move_number="1", stone_1="h8", offer_draw="true")
    api.get(ben_link)
    _answer(api, ben_link, move_number="2", stone_1="z1", stone_2="a1")  # refused
    _answer(api, ben_link, action="resign", move_number="2")
    _answer(api, ben_link, action="resign_confirmed", move_number="2")
    tokens = [ana_link.rsplit("/", 1)[1], ben_link.rsplit("/", 1)[1]]
    public = [api.get(f"{RUN}/board").text, api.get(f"{RUN}/board", headers={"accept": "text/html"}).text,
              api.get(f"{RUN}/board.svg").text, api.get(f"{RUN}/moves").text]
    events = str(aws.drain())
    logs = capsys.readouterr()
    written = "\n".join([caplog.text, logs.out, logs.err, *(str(r.__dict__) for r in caplog.records)])
    stored = str(boto3.resource("dynamodb", region_name=REGION).Table(TEST_TABLE).scan()["Items"])
    for token in tokens:
        places = [("event", events), ("log", written), ("table", stored), *(("public", p) for p in public)]
        for where, text in places:
            assert token not in text, where


def test_json_clients_get_the_sheet_and_the_platform_errors(api: Api) -> None:
    _, link = _against_computer(api)
    json_accept = {"accept": "application/json"}
    sheet = api.get(link, headers=json_accept)
    assert sheet.status == 200 and sheet.json["sheet_type"] == "connect6_game_move"
    played = api.post(link, {"move_number": 1, "stone_1": "h8"}, headers=json_accept)
    assert played.status == 200 and played.json["move_number"] == 3
    refused = api.post(link, {"move_number": 3, "stone_1": "h8", "stone_2": "a1"}, headers=json_accept)
    assert refused.status == 422 and refused.json["error"]["code"] == "illegal_move"
    assert api.get("/v1/play/" + "B" * 43, headers=json_accept).json["error"]["code"] == "play_link_not_found"
