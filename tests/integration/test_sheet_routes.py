"""Issue 27 through the handlers on moto: the three sheets by Accept (JSON, page, paper, 406), Vary
and HEAD, the sheet code, forms as bodies (the same game as JSON; a field a form does not have is
refused and changes nothing) and the invitation defects (HTML error pages, the absolute redirect,
names an invitee may not take)."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from typing import Any

import boto3
import pytest

from connect6.api import runtime
from connect6.game.sheet_code import game_tag, parse, verify
from tests.integration.harness import REGION, TEST_TABLE, Api

RUN = "/v1/games/run-42"
BEN_INVITE = {"kind": "invite", "name": "Ben", "email": "ben@example.com"}
BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"


def _table() -> list[dict[str, Any]]:
    """Every item of the table (games, invitations, play links), to prove a refusal changed nothing."""
    table = boto3.resource("dynamodb", region_name=REGION).Table(TEST_TABLE)
    return sorted(table.scan()["Items"], key=lambda item: (item["pk"], item["sk"]))


def _computer_game(api: Api) -> str:
    assert api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True}).status == 201
    joined = api.post(f"{RUN}/players", {"name": "Ana", "email": "ana@example.com",
                                         "opponent": {"kind": "computer", "level": "easy"}})
    assert joined.status == 201, joined.text
    return str(joined.json["player_id"])


def _invited(api: Api, run: str = RUN) -> tuple[str, str]:
    """Ana joins and invites Ben: (Ana's id, the invitation's path)."""
    api.put(run, {"game_name": "Sunday club", "allow_computer_opponents": True})
    joined = api.post(f"{run}/players", {"name": "Ana", "email": "ana@example.com", "opponent": BEN_INVITE})
    assert joined.status == 201, joined.text
    return joined.json["player_id"], joined.json["invite"]["url"].removeprefix("https://api.example.test")


class _Form(HTMLParser):
    """The fields of a page's first form, as a browser would post them (hidden and filled inputs,
    the selected option, ticked boxes)."""

    def __init__(self) -> None:
        super().__init__()
        self.action = ""
        self.names: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "form" and not self.action:
            self.action = found.get("action") or ""
        if tag in ("input", "select", "textarea") and found.get("name"):
            self.names.add(str(found["name"]))


# ---------------------------------------------------------------------------- content negotiation
@pytest.mark.parametrize("accept", [None, "*/*", "application/json", "image/png, */*;q=0.1",
                                    "text/html;q=0.1, application/json"])
def test_json_is_the_default_and_what_json_or_anything_asks_for(api: Api, accept: str | None) -> None:
    ana = _computer_game(api)
    for path in (f"{RUN}/join-sheet", f"{RUN}/players/{ana}/move-sheet"):
        reply = api.get(path, headers={"accept": accept} if accept is not None else {})
        assert reply.status == 200 and reply.headers["content-type"] == "application/json", (path, accept)
        assert reply.headers["vary"] == "Accept"
        assert reply.json["sheet_code"]


def test_text_html_gets_the_page_framed_only_by_the_configured_origins(api: Api, monkeypatch) -> None:
    monkeypatch.setenv("FRAME_ANCESTORS", "https://platform.example, https://print.platform.example:8443")
    runtime.configure(colour_draw=lambda game: 1)  # settings read again
    ana = _computer_game(api)
    reply = api.get(f"{RUN}/players/{ana}/move-sheet", headers={"accept": BROWSER})
    assert reply.status == 200 and reply.headers["content-type"] == "text/html; charset=utf-8"
    assert reply.headers["vary"] == "Accept" and reply.headers["cache-control"] == "no-store"
    policy = reply.headers["content-security-policy"]
    assert "frame-ancestors https://platform.example https://print.platform.example:8443" in policy
    assert "x-frame-options" not in reply.headers
    sheet = api.get(f"{RUN}/players/{ana}/move-sheet").json
    assert sheet["sheet_code"] in reply.text and "Hello Ana" in reply.text
    form = _Form()
    form.feed(reply.text)
    assert form.action == f"https://api.example.test{RUN}/players/{ana}/moves"
    # Black's opening: one stone, so no stone_2 (the route's form fields otherwise)
    assert sheet["move_number"] == 1 and form.names == {"move_number", "stone_1", "table_talk", "offer_draw"}
    assert "form-action 'self' https://api.example.test" in policy


def test_without_frame_ancestors_no_one_may_frame_the_pages(api: Api) -> None:
    ana = _computer_game(api)
    for path in (f"{RUN}/join-sheet", f"{RUN}/players/{ana}/move-sheet"):
        reply = api.get(path, headers={"accept": "text/html"})
        assert reply.headers["content-security-policy"].endswith("frame-ancestors 'none'"), path


def test_the_join_sheet_page_posts_the_join_forms_fields(api: Api) -> None:
    api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True})
    reply = api.get(f"{RUN}/join-sheet", headers={"accept": "text/html"})
    form = _Form()
    form.feed(reply.text)
    assert form.action == f"https://api.example.test{RUN}/players"
    assert form.names == {"name", "email", "opponent", "computer_level", "invite_name", "invite_email",
                          "invite_note"}


def test_application_pdf_gets_paper_with_the_code(api: Api) -> None:
    ana = _computer_game(api)
    reply = api.get(f"{RUN}/players/{ana}/move-sheet", headers={"accept": "application/pdf"})
    assert reply.status == 200 and reply.headers["content-type"] == "application/pdf"
    assert reply.body.startswith(b"%PDF-") and reply.headers["vary"] == "Accept"
    code = api.get(f"{RUN}/players/{ana}/move-sheet").json["sheet_code"]
    assert reply.headers["content-disposition"] == f'inline; filename="connect6-move-{code}.pdf"'
    join = api.get(f"{RUN}/join-sheet", headers={"accept": "application/pdf;q=0.9, text/html;q=0.5"})
    assert join.headers["content-type"] == "application/pdf" and join.body.startswith(b"%PDF-")


@pytest.mark.parametrize("accept", ["image/png", "application/xml", "text/plain", "application/json;q=0",
                                    "text/html;q=0, application/pdf;q=0"])
def test_other_media_types_only_are_406_with_a_sentence(api: Api, accept: str) -> None:
    ana = _computer_game(api)
    for path in (f"{RUN}/join-sheet", f"{RUN}/players/{ana}/move-sheet"):
        reply = api.get(path, headers={"accept": accept})
        assert reply.status == 406 and reply.headers["vary"] == "Accept", (path, accept)
        assert reply.error["code"] == "not_acceptable" and "application/pdf" in reply.error["message"]


def test_a_sheet_that_does_not_exist_is_still_its_error_not_406(api: Api) -> None:
    reply = api.get("/v1/games/nowhere/join-sheet", headers={"accept": "text/html"})
    assert reply.status == 404 and reply.error["code"] == "game_not_found"
    assert reply.headers["vary"] == "Accept"


def test_the_recap_by_accept(api: Api) -> None:
    ana = _computer_game(api)
    api.post(f"{RUN}/players/{ana}/resign")
    sheet = api.get(f"{RUN}/players/{ana}/recap").json
    page = api.get(f"{RUN}/players/{ana}/recap", headers={"accept": "text/html"})
    paper = api.get(f"{RUN}/players/{ana}/recap", headers={"accept": "application/pdf"})
    refused = api.get(f"{RUN}/players/{ana}/recap", headers={"accept": "image/*"})
    assert page.status == 200 and sheet["sheet_code"] in page.text
    assert 'href="https://api.example.test/v1/games/run-42/board"' in page.text
    assert paper.status == 200 and paper.body.startswith(b"%PDF-")
    assert refused.status == 406
    assert {page.headers["vary"], paper.headers["vary"], refused.headers["vary"]} == {"Accept"}


# ---------------------------------------------------------------------------- the sheet code
def test_every_sheet_has_a_valid_code_naming_game_seat_and_move(api: Api) -> None:
    ana = _computer_game(api)
    join = api.get(f"{RUN}/join-sheet").json["sheet_code"]
    move = api.get(f"{RUN}/players/{ana}/move-sheet").json
    assert verify(join, "run-42", 0, 0)
    assert verify(move["sheet_code"], "run-42", 1, move["move_number"])
    assert parse(move["sheet_code"]).game == game_tag("run-42")
    api.post(f"{RUN}/players/{ana}/resign")
    recap = api.get(f"{RUN}/players/{ana}/recap").json
    assert verify(recap["sheet_code"], "run-42", 1, recap["move_count"])


# ---------------------------------------------------------------------------- Vary and HEAD
def test_vary_accept_on_every_route_whose_answer_depends_on_it(api: Api) -> None:
    _ana, invite = _invited(api)
    for path in (f"{RUN}/board", invite, "/v1/games/nowhere/board"):
        for accept in ("text/html", "application/json"):
            reply = api.get(path, headers={"accept": accept})
            assert reply.headers.get("vary") == "Accept", (path, accept, reply.status)
    etag = api.get(f"{RUN}/board").headers["etag"]
    unchanged = api.get(f"{RUN}/board", headers={"if-none-match": etag})
    assert unchanged.status == 304 and unchanged.headers["vary"] == "Accept"
    # the picture and the moves do not depend on Accept
    assert "vary" not in api.get(f"{RUN}/board.svg").headers
    assert "vary" not in api.get(f"{RUN}/moves").headers


def test_head_answers_the_public_pages_as_get_without_the_body(api: Api) -> None:
    _ana, invite = _invited(api)
    for path, accept in ((f"{RUN}/board", "text/html"), (f"{RUN}/board", "application/json"),
                         (f"{RUN}/board.svg", "*/*"), (f"{RUN}/moves", "*/*"), (invite, "text/html"),
                         ("/v1/games/nowhere/board", "text/html")):
        get = api.get(path, headers={"accept": accept})
        head = api.request("HEAD", path, headers={"accept": accept})
        assert head.status == get.status and head.body == b"", (path, accept)
        assert head.headers["content-type"] == get.headers["content-type"], path
        assert head.headers.get("etag") == get.headers.get("etag"), path
        assert head.headers.get("vary") == get.headers.get("vary"), path


def test_head_changes_nothing(api: Api) -> None:
    _ana, invite = _invited(api)
    before = _table()
    assert api.request("HEAD", invite).status == 200
    assert _table() == before
    assert api.get(invite, headers={"accept": "application/json"}).json["status"] == "pending"


# ---------------------------------------------------------------------------- forms as bodies
def _moves(api: Api, run: str) -> Any:
    return api.get(f"{run}/moves").json


def test_a_move_form_is_the_same_move_as_its_json(api: Api) -> None:
    # Given two identical games against the computer (same draws, same seed), one played by JSON and
    # one by the move sheet's form
    results = []
    for run, by_form in (("/v1/games/by-json", False), ("/v1/games/by-form", True)):
        api.put(run, {"game_name": "Same", "allow_computer_opponents": True})
        computer = {"kind": "computer", "level": "easy"}
        you = api.post(run + "/players", {"name": "Ana", "email": "ana@example.com",
                                          "opponent": computer}).json["player_id"]
        assert api.get(f"{run}/players/{you}/move-sheet").json["stone_colour"] == "black"
        if by_form:
            first = api.post(f"{run}/players/{you}/moves", form={
                "move_number": "1", "stone_1": "h8", "table_talk": "good_luck", "offer_draw": ""})
        else:
            first = api.post(f"{run}/players/{you}/moves", {"move_number": 1, "stones": ["h8"],
                                                            "table_talk": "good_luck"})
        assert first.status == 200, first.text
        results.append((first.json["stones_placed"], first.json["move_number"], first.json["status"]))
    assert results[0] == results[1]
    assert _moves(api, "/v1/games/by-json")["moves"][0] == _moves(api, "/v1/games/by-form")["moves"][0]


def test_a_two_stone_form_with_a_draw_offer_lands(api: Api) -> None:
    runtime.configure(colour_draw=lambda game: 1)
    ana, invite = _invited(api)
    ben = api.post(invite, {"name": "Ben"}).json["player_id"]
    assert api.post(f"{RUN}/players/{ana}/moves", form={"move_number": "1", "stone_1": "h8"}).status == 200
    second = api.post(f"{RUN}/players/{ben}/moves", form={
        "move_number": "2", "stone_1": "I9", "stone_2": " j10 ", "table_talk": "", "offer_draw": "true"})
    assert second.status == 200, second.text
    assert second.json["stones_placed"] == ["i9", "j10"] and second.json["draw_offer"]["answer"] == "pending"
    assert api.get(f"{RUN}/players/{ana}/move-sheet").json["draw_offered_by_opponent"] is True


def test_a_form_and_its_json_share_one_idempotency_key(api: Api) -> None:
    ana = _computer_game(api)
    key = {"idempotency-key": "move-1"}
    by_form = api.post(f"{RUN}/players/{ana}/moves", form={"move_number": "1", "stone_1": "h8"}, headers=key)
    by_json = api.post(f"{RUN}/players/{ana}/moves", {"move_number": 1, "stones": ["h8"]}, headers=dict(key))
    assert by_form.status == by_json.status == 200
    assert by_json.headers.get("idempotent-replayed") == "true" and by_json.json == by_form.json


def test_a_join_form_is_the_same_join_as_its_json(api: Api) -> None:
    api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True})
    joined = api.post(f"{RUN}/players", form={
        "name": "Ana", "email": "ana@example.com", "opponent": "invite", "computer_level": "",
        "invite_name": "Ben", "invite_email": "ben@example.com", "invite_note": "Rematch?"})
    assert joined.status == 201, joined.text
    assert joined.json["invite"]["name"] == "Ben"
    assert api.get(joined.json["invite"]["url"].removeprefix("https://api.example.test"),
                   headers={"accept": "application/json"}).json["note"] == "Rematch?"


def test_a_join_form_ignores_the_hidden_fields_of_the_other_choice(api: Api) -> None:
    api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True})
    # computer chosen: the invitation fields are posted (empty or not) and count for nothing
    joined = api.post(f"{RUN}/players", form={
        "name": "Ana", "email": "ana@example.com", "opponent": "computer", "computer_level": "easy",
        "invite_name": "", "invite_email": "not an address", "invite_note": ""})
    assert joined.status == 201, joined.text
    assert joined.json["invite"] is None and joined.json["game"]["status"] == "in_progress"
    api.put("/v1/games/other", {"game_name": "Other", "allow_computer_opponents": True})
    alone = api.post("/v1/games/other/players", form={
        "name": "Ana", "email": "ana@example.com", "opponent": "none", "computer_level": "hard",
        "invite_name": "", "invite_email": "", "invite_note": ""})
    assert alone.status == 201 and alone.json["game"]["status"] == "waiting_for_players"


def test_a_join_forms_bad_invitation_names_the_form_field(api: Api) -> None:
    api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True})
    reply = api.post(f"{RUN}/players", form={"name": "Ana", "email": "ana@example.com", "opponent": "invite",
                                             "invite_name": "Ben", "invite_email": "ben-at-example"})
    assert reply.status == 422 and reply.error["code"] == "invalid_request"
    assert reply.error["field"] == "invite_email" and reply.error["message"].startswith("invite_email ")


@pytest.mark.parametrize("route", ["moves", "players", "invite"])
def test_a_field_a_form_does_not_have_is_refused_and_changes_nothing(api: Api, route: str) -> None:
    ana, invite = _invited(api)
    path, fields = {
        "moves": (f"{RUN}/players/{ana}/moves", {"move_number": "1", "stone_1": "h8", "stones": "h8"}),
        "players": (f"{RUN}/players", {"name": "Cy", "email": "cy@example.com", "colour": "black"}),
        "invite": (invite, {"name": "Ben", "seat": "1"}),
    }[route]
    before = _table()
    reply = api.post(path, form=fields, headers={"accept": "application/json"})
    assert reply.status == 422 and reply.error["code"] == "invalid_request", reply.text
    assert reply.error["field"] in ("stones", "colour", "seat")
    assert _table() == before


@pytest.mark.parametrize("body", ["[[[x]]]", "--x", "[[[x]]]&--x", "%5B%5B%5B", "=", "name=Ben&&x"])
def test_a_garbage_form_never_redeems_the_seat(api: Api, body: str) -> None:
    _ana, invite = _invited(api)
    before = _table()
    reply = api.post(invite, body, headers={"content-type": "application/x-www-form-urlencoded"})
    assert 400 <= reply.status < 500, (body, reply.status)
    assert _table() == before
    assert api.get(invite, headers={"accept": "application/json"}).json["status"] == "pending"


@pytest.mark.parametrize("body", ["", "&&"])
def test_an_empty_form_keeps_the_name_the_inviter_gave(api: Api, body: str) -> None:
    _ana, invite = _invited(api)
    reply = api.post(invite, body, headers={"content-type": "application/x-www-form-urlencoded",
                                            "accept": "application/json"})
    assert reply.status == 201
    assert [s["name"] for s in reply.json["game"]["seats"]] == ["Ana", "Ben"]


# ---------------------------------------------------------------------------- the invitation's defects
def test_a_malformed_invitation_link_in_a_browser_gets_the_error_page(api: Api) -> None:
    reply = api.get("/v1/invites/bad!token", headers={"accept": BROWSER})
    assert reply.status == 422 and reply.headers["content-type"].startswith("text/html")
    assert 'data-code="invalid_request"' in reply.text and "isn&#x27;t right" in reply.text
    assert reply.headers["content-security-policy"].startswith("default-src 'none'")
    as_json = api.get("/v1/invites/bad!token", headers={"accept": "application/json"})
    assert as_json.status == 422 and as_json.error["code"] == "invalid_request"


def test_a_malformed_invitation_form_gets_the_error_page(api: Api) -> None:
    _ana, invite = _invited(api)
    before = _table()
    for body in ("name=%FF", "name=Ben&seat=2", "name=" + "x" * 300):
        reply = api.post(invite, body, headers={"content-type": "application/x-www-form-urlencoded"})
        assert reply.status == 422 and reply.headers["content-type"].startswith("text/html"), body
        assert 'id="message"' in reply.text
    assert _table() == before


def test_the_redirect_after_accepting_is_the_contracts_absolute_path(api: Api) -> None:
    _ana, invite = _invited(api)
    reply = api.post(invite, form={"name": "Ben"})
    assert reply.status == 303 and reply.headers["location"] == invite + "?accepted=1"
    assert reply.headers["location"].startswith("/v1/invites/")


@pytest.mark.parametrize("name", ["Computer (hard)", "computer (easy)", "Computer", "  COMPUTER(normal) ",
                                  "Ana", "ana", "ＡＮＡ", " Ana  "])
def test_an_invitee_may_not_take_the_computers_or_the_inviters_name(api: Api, name: str) -> None:
    _ana, invite = _invited(api)
    before = _table()
    reply = api.post(invite, {"name": name}, headers={"accept": "application/json"})
    assert reply.status == 422 and reply.error["code"] == "name_not_allowed"
    assert reply.error["field"] == "name"
    assert "choose another name" in reply.error["message"]
    page = api.post(invite, form={"name": name})
    assert page.status == 422 and 'data-code="name_not_allowed"' in page.text
    assert "choose another name" in page.text
    assert _table() == before
    assert api.post(invite, {"name": "Ben"}).status == 201  # another name is fine


def test_the_openapi_document_declares_forms_pages_and_paper(api: Api, monkeypatch) -> None:
    from tests.integration.harness import function_environment, handler_module, routes

    for name, value in function_environment().items():
        monkeypatch.setenv(name, value)
    documents = {}
    for route in routes():
        app = handler_module(route.function).app
        documents[route.function.logical_id] = json.loads(app.get_openapi_json_schema(title="c", version="1"))
    move = documents["MoveFunction"]["paths"]
    sheet = move["/v1/games/{game_id}/players/{player_id}/move-sheet"]["get"]["responses"]
    assert set(sheet["200"]["content"]) == {"application/json", "text/html", "application/pdf"}
    assert "406" in sheet
    body = move["/v1/games/{game_id}/players/{player_id}/moves"]["post"]["requestBody"]["content"]
    form = body["application/x-www-form-urlencoded"]["schema"]
    assert set(form["properties"]) == {"move_number", "stone_1", "stone_2", "table_talk", "offer_draw"}
    assert form["additionalProperties"] is False
    join = documents["JoinFunction"]["paths"]
    form = join["/v1/games/{game_id}/players"]["post"]["requestBody"]["content"][
        "application/x-www-form-urlencoded"]["schema"]
    assert set(form["properties"]) == {"name", "email", "opponent", "computer_level", "invite_name",
                                       "invite_email", "invite_note"}
    assert set(join["/v1/invites/{token}"]["post"]["requestBody"]["content"][
        "application/x-www-form-urlencoded"]["schema"]["properties"]) == {"name"}
