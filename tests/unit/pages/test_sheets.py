"""The turn sheets as pages: the move sheet's form is exactly the move route's form, the join sheet
offers only what the run allows, the recap has the winning line; every string a player wrote is
escaped, the page script holds none of them, and the policy allows exactly the inline code."""

from __future__ import annotations

import base64
import hashlib
import json
import subprocess
import sys

import pytest

from connect6.pages import (
    SheetContext,
    board_svg,
    join_sheet_page,
    move_sheet_page,
    recap_page,
    sheet_csp,
)
from connect6.pages.html import content_security_policy, frame_ancestors_source
from connect6.pages.svg import ROOT_STYLE
from tests.unit.pages.sheet_data import (
    EVIL,
    PHRASES,
    WINNING,
    first_move_sheet,
    join_sheet,
    move_sheet,
    recap_sheet,
)
from tests.unit.pages.test_html import assert_self_contained, collect

CONTEXT = SheetContext(sheet_code="R42-S1-M3-K", form_action="/v1/games/run-42/players/p-1/moves")


def form_fields(page: str, form_id: str) -> dict[str, list[dict[str, str | None]]]:
    """Every named control of the form (inside it, or outside with form=id): name -> attributes."""
    c = collect(page)
    fields: dict[str, list[dict[str, str | None]]] = {}
    inside = False
    for tag, attrs in c.tags:
        if tag == "form":
            inside = attrs.get("id") == form_id
        named = tag in ("input", "select", "textarea", "button") and attrs.get("name")
        if named and (inside or attrs.get("form") == form_id):
            fields.setdefault(str(attrs["name"]), []).append({**attrs, "tag": tag})
    return fields


def forms(page: str) -> list[dict[str, str | None]]:
    return [attrs for tag, attrs in collect(page).tags if tag == "form"]


def text_of(page: str) -> str:
    return " ".join(" ".join(collect(page).text).split())


# ---------------------------------------------------------------------------------------------
# The move sheet


def test_move_form_has_exactly_the_move_routes_fields():
    page = move_sheet_page(move_sheet(), context=CONTEXT)
    # One form, posting to the route's URL
    assert forms(page) == [{"id": "move-form", "class": "sheet-form", "method": "post",
                            "action": "/v1/games/run-42/players/p-1/moves", "autocomplete": "off"}]
    fields = form_fields(page, "move-form")
    assert set(fields) == {"move_number", "stone_1", "stone_2", "table_talk", "offer_draw"}
    (number,) = fields["move_number"]
    assert number["type"] == "hidden" and number["value"] == "3"
    for name in ("stone_1", "stone_2"):
        (stone,) = fields[name]
        assert stone["type"] == "text" and "required" in stone
    (draw,) = fields["offer_draw"]
    assert draw["type"] == "checkbox" and draw["value"] == "true"
    # The phrase picker: an empty choice first, then every phrase id
    options = [attrs.get("value") for tag, attrs in collect(page).tags if tag == "option"]
    assert options == ["", *(pid for pid, _ in PHRASES)]
    # The submit button is plain (no name): it adds no field
    send = [attrs for tag, attrs in collect(page).tags if tag == "button" and attrs.get("id") == "send"]
    assert send == [{"type": "submit", "id": "send", "class": "primary"}]
    assert_self_contained(page)


def test_opening_move_has_no_second_stone():
    page = move_sheet_page(first_move_sheet(), context=CONTEXT)
    fields = form_fields(page, "move-form")
    assert set(fields) == {"move_number", "stone_1", "table_talk", "offer_draw"}
    assert "Your move 1: place 1 stone with Black" in text_of(page)


def test_page_shows_greeting_colours_opponent_line_and_last_move():
    page = move_sheet_page(move_sheet(draw_offered_by_opponent=True),
                           context=SheetContext(sheet_code="R42-S1-M3-K", game_name="Sunday club"))
    text = text_of(page)
    assert "Hello Ana" in text and "Sunday club" in text
    assert "Black · you · to play" in text and "White · computer" in text
    assert "Your move 3: place 2 stones with Black." in text
    assert "Nice move! — Ben" in text
    assert "Ben offers a draw." in text and "Playing your move declines it." in text
    assert "Last move: 2. White i9 h7" in text
    assert "R42-S1-M3-K" in text
    # The last move is marked on the board
    assert page.count('class="last-mark"') == 2


def test_every_point_is_a_labelled_target_and_taken_ones_say_so():
    page = move_sheet_page(move_sheet(), context=CONTEXT)
    rects = [attrs for tag, attrs in collect(page).tags if tag == "rect" and attrs.get("class") == "pt"]
    assert len(rects) == 15 * 15
    assert len({r["data-point"] for r in rects}) == 225
    by_point = {r["data-point"]: r for r in rects}
    assert by_point["a1"]["aria-label"] == "a1" and "data-taken" not in by_point["a1"]
    assert by_point["h8"]["aria-label"] == "h8, black stone" and by_point["h8"]["data-taken"] == "black"
    assert by_point["i9"]["data-taken"] == "white"
    # The board is a group (its points are reachable), and the layer waits for the script
    assert 'role="group"' in page and 'class="points" aria-hidden="true"' in page


def test_actions_appear_only_when_the_route_takes_them():
    sheet = move_sheet(draw_offered_by_opponent=True)
    counts = SheetContext(hints_left=2, undos_left=0)
    plain = move_sheet_page(sheet, context=counts)
    assert "action" not in form_fields(plain, "move-form")
    assert "2 hints left, 0 undos left" in text_of(plain)
    played = move_sheet_page(sheet, context=SheetContext(hints_left=2, undos_left=0, play_actions=True))
    actions = {str(a["value"]): a for a in form_fields(played, "move-form")["action"]}
    assert set(actions) == {"accept_draw", "decline_draw", "hint", "undo"}
    assert all("formnovalidate" in a for a in actions.values())
    assert "disabled" in actions["undo"] and "disabled" not in actions["hint"]
    assert "Hint (2 left)" in text_of(played)
    # Against a person (no counts) there is no hint or undo at all
    person = move_sheet_page(sheet, context=SheetContext(play_actions=True))
    assert {a["value"] for a in form_fields(person, "move-form")["action"]} == {"accept_draw", "decline_draw"}


@pytest.mark.parametrize(("extra", "says"), [
    ({"your_turn": False, "stones_to_place": 0}, "It is Ben's turn"),
    ({"your_turn": False, "stones_to_place": 0, "status": "completed"}, "The game is over"),
    ({"your_turn": False, "stones_to_place": 0, "status": "waiting_for_players", "stone_colour": None,
      "opponent": None, "last_move": None}, "The game starts when both seats are taken"),
])
def test_without_a_turn_the_page_shows_board_and_status_but_no_form(extra, says):
    page = move_sheet_page(move_sheet(**extra), context=CONTEXT)
    assert forms(page) == []
    assert says in text_of(page)
    assert 'class="c6-board"' in page and 'class="pt"' not in page
    assert not collect(page).scripts


def test_typed_values_come_back_and_the_notice_shows():
    context = SheetContext(values={"stone_1": "k11", "table_talk": "oops", "offer_draw": "true"},
                           notice="k12 is already taken")
    page = move_sheet_page(move_sheet(), context=context)
    fields = form_fields(page, "move-form")
    assert fields["stone_1"][0]["value"] == "k11" and fields["stone_2"][0]["value"] == ""
    assert "checked" in fields["offer_draw"][0]
    selected = [a.get("value") for t, a in collect(page).tags if t == "option" and "selected" in a]
    assert selected == ["oops"]
    assert "k12 is already taken" in text_of(page)


def test_script_state_holds_no_player_text():
    page = move_sheet_page(move_sheet(player_name=EVIL, greeting=EVIL), context=CONTEXT)
    scripts = collect(page).scripts
    data = [body for attrs, body in scripts if attrs.get("type") == "application/json"]
    assert json.loads(data[0]) == {"size": 15, "colour": "black", "stones_to_place": 2, "move_number": 3}


# ---------------------------------------------------------------------------------------------
# Escaping by construction


def hostile_move_sheet():
    return move_sheet(
        greeting=EVIL, player_name=EVIL, opponent={"name": EVIL, "kind": "human"},
        game_id=EVIL, draw_offered_by_opponent=True,
        table_talk_received={"phrase_id": EVIL, "text": EVIL, "from": EVIL},
        table_talk_options=[{"phrase_id": EVIL, "text": EVIL}],
    )


def hostile_pages() -> list[tuple[str, str]]:
    context = SheetContext(sheet_code=EVIL, form_action=EVIL, game_name=EVIL, notice=EVIL,
                           values={k: EVIL for k in ("stone_1", "stone_2", "name", "email", "invite_name",
                                                     "invite_email", "invite_note", "table_talk")},
                           play_actions=True, hints_left=1, undos_left=1, board_url=EVIL)
    recap = recap_sheet(player_name=EVIL, game_id=EVIL, winner={"colour": "black", "name": EVIL},
                        opponent={"name": EVIL, "kind": "human"}, record=EVIL, started_at=EVIL,
                        table_talk_received={"phrase_id": "x", "text": EVIL, "from": EVIL},
                        table_talk_sent={"phrase_id": "y", "text": EVIL, "from": EVIL})
    return [
        ("move", move_sheet_page(hostile_move_sheet(), context=context)),
        ("join", join_sheet_page(join_sheet(game_name=EVIL, game_id=EVIL, computer_levels=[EVIL]),
                                 context=context)),
        ("recap", recap_page(recap, context=context)),
    ]


@pytest.mark.parametrize(("kind", "page"), hostile_pages(), ids=["move", "join", "recap"])
def test_every_player_string_is_escaped(kind, page):
    c = collect(page)
    # No injected element: the only scripts are the page's own (the move sheet's data and code)
    assert "<script>alert" not in page and EVIL not in page
    assert len(c.scripts) == (2 if kind == "move" else 0)
    # No attribute was broken out of: every value that carries the string carries it whole
    values = [v for _, attrs in c.tags for v in attrs.values() if v and 'alert("x")' in v]
    assert values and all(v == EVIL for v in values)
    # and the reader sees the string as written
    assert EVIL in "".join(c.text)


# ---------------------------------------------------------------------------------------------
# The join sheet


def test_join_form_carries_exactly_its_fields():
    page = join_sheet_page(join_sheet(), context=SheetContext(form_action="/v1/games/run-42/players"))
    assert [f["action"] for f in forms(page)] == ["/v1/games/run-42/players"]
    fields = form_fields(page, "join-form")
    assert set(fields) == {"name", "email", "opponent", "computer_level", "invite_name", "invite_email",
                           "invite_note"}
    assert [f["value"] for f in fields["opponent"]] == ["none", "computer", "invite"]
    assert "checked" in fields["opponent"][0]
    levels = [a.get("value") for t, a in collect(page).tags if t == "option"]
    assert levels == ["easy", "normal", "hard"]
    assert fields["invite_note"][0]["tag"] == "textarea"
    text = text_of(page)
    assert "15×15" in text and "6 or more" in text and "Black opens with 1 stone" in text
    assert_self_contained(page)


def test_join_form_offers_only_what_the_run_allows():
    no_computer = form_fields(join_sheet_page(join_sheet(can_request_computer=False)), "join-form")
    assert [f["value"] for f in no_computer["opponent"]] == ["none", "invite"]
    assert "computer_level" not in no_computer
    last_seat = join_sheet_page(join_sheet(open_seats=1, can_request_computer=False, can_invite=False))
    fields = form_fields(last_seat, "join-form")
    assert set(fields) == {"name", "email", "opponent"}
    assert "Play the player already seated" in text_of(last_seat)
    full = join_sheet_page(join_sheet(open_seats=0, can_request_computer=False, can_invite=False))
    assert forms(full) == [] and "Every seat in this game is taken" in text_of(full)


def test_invitation_fields_hide_when_the_computer_is_chosen():
    css = join_sheet_page(join_sheet()).split("<style>", 1)[1].split("</style>", 1)[0]
    assert ".join-form:has(#opp-computer:checked) .invite-fields" in css
    # no script: without the selector's support the fields simply show
    assert not collect(join_sheet_page(join_sheet())).scripts


# ---------------------------------------------------------------------------------------------
# The recap


def test_recap_shows_result_winning_line_record_and_the_way_to_step_through():
    page = recap_page(recap_sheet(), context=SheetContext(sheet_code="R42-S1-END", public_base="/v1"))
    c = collect(page)
    text = text_of(page)
    assert "You won, Ana!" in text
    assert "Ana, playing Black, won with six in a row after 6 moves." in text
    assert "Ben" in text and "Good game! — Ben" in text
    assert "Hints used 1" in text and "Undos used 2" in text
    assert "1.h8 2.d9e9 3.g8i8" in text
    rings = {a["data-point"] for t, a in c.tags if t == "circle" and a.get("class") == "win-mark"}
    assert rings == set(WINNING)
    assert any(t == "line" and a.get("class") == "winning-band" for t, a in c.tags)
    links = [a["href"] for t, a in c.tags if t == "a" and a.get("id") == "step-through"]
    assert links == ["/v1/games/run-42/board"]
    assert not c.scripts
    assert_self_contained(page)


def test_recap_link_takes_a_full_base_and_quotes_the_game_id():
    page = recap_page(recap_sheet(game_id="run 42/x"),
                      context=SheetContext(public_base="https://api.example.org/v1/"))
    links = [a["href"] for t, a in collect(page).tags if t == "a" and a.get("id") == "step-through"]
    assert links == ["https://api.example.org/v1/games/run%2042%2Fx/board"]


@pytest.mark.parametrize(("extra", "heading", "how"), [
    ({"result": "lost", "winner": {"colour": "white", "name": "Ben"}, "your_colour": "black"},
     "Good game, Ana", "Ben, playing White, won with six in a row"),
    ({"result": "lost", "winner": {"colour": "white", "name": "Ben"}, "end_reason": "resigned",
      "winning_line": []}, "Good game, Ana", "Ben, playing White, won: Ana resigned after 6 moves."),
    ({"result": "draw", "status": "draw", "winner": None, "end_reason": "agreed", "winning_line": []},
     "A draw", "Draw by agreement after 6 moves."),
])
def test_recap_says_how_the_game_ended(extra, heading, how):
    text = text_of(recap_page(recap_sheet(**extra)))
    assert heading in text and how in text


# ---------------------------------------------------------------------------------------------
# Policy, framing, scaling


def digest(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


@pytest.mark.parametrize("kind", ["move", "join", "recap"])
def test_each_sheet_policy_allows_exactly_its_inline_code(kind):
    page = {"move": move_sheet_page(move_sheet()), "join": join_sheet_page(join_sheet()),
            "recap": recap_page(recap_sheet())}[kind]
    csp = sheet_csp(kind)
    assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp and "base-uri 'none'" in csp
    executable = [body for attrs, body in collect(page).scripts if attrs.get("type") != "application/json"]
    assert len(executable) == (1 if kind == "move" else 0)
    assert all(digest(body) in csp for body in executable)
    if not executable:
        assert "script-src 'none'" in csp
    styles = [part.split("</style>", 1)[0] for part in page.split("<style>")[1:]]
    assert styles and all(digest(style) in csp for style in styles)
    assert ' style="' not in page
    # The same code passes the site-wide policy too
    assert all(digest(body) in content_security_policy() for body in executable)
    assert all(digest(style) in content_security_policy() for style in styles)
    # No frame-busting: nothing reads or writes window.top
    assert "top.location" not in page and "window.top" not in page


def test_frame_ancestors_name_the_platform_or_none():
    assert "frame-ancestors 'none'" in content_security_policy()
    csp = sheet_csp("move", frame_ancestors=["https://play.example.org", " https://b.example:8443/ "])
    assert csp.endswith("frame-ancestors https://play.example.org https://b.example:8443")
    assert content_security_policy(["https://play.example.org"]).endswith(
        "frame-ancestors https://play.example.org")
    assert frame_ancestors_source(["", " "]) == "'none'"
    bad_sources = ("https://a.example; script-src *", "https://a.example/path", "'unsafe-inline'",
                   "javascript:x")
    for bad in bad_sources:
        with pytest.raises(ValueError):
            sheet_csp("move", frame_ancestors=[bad])


def test_an_absolute_form_action_is_allowed_by_origin():
    csp = sheet_csp("move", form_action="https://api.example.org/v1/play/abc")
    assert "form-action 'self' https://api.example.org;" in csp
    assert "form-action 'self';" in sheet_csp("move", form_action="moves")


def test_board_svg_scales_to_a_narrow_window_and_keeps_its_size_in_an_img():
    svg = board_svg(recap_sheet_picture())
    # Intrinsic size for an <img> and a wide window, viewBox and a root style to shrink on a phone
    assert 'viewBox="0 0 672 672" width="672" height="672"' in svg
    assert f"<style>{ROOT_STYLE}</style>" in svg and "max-width:100%" in ROOT_STYLE
    assert ROOT_STYLE.startswith("svg:root")  # inline in a page it styles nothing else


def recap_sheet_picture():
    from connect6.game.shapes import BoardPicture

    sheet = recap_sheet()
    return BoardPicture(game_id="g", board_size=15, board=sheet.board, move_count=6, last_move=None,
                        winning_line=sheet.winning_line)


def test_importing_the_pages_does_not_import_jinja2_or_fpdf():
    code = ("import sys, connect6.pages; "
            "print(sorted(m for m in ('jinja2', 'fpdf', 'segno') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# ---------------------------------------------------------------------------------------------
# The existing pages (built with html.escape, not Jinja2): every player string escaped too


def hostile_view():
    from tests.unit.pages.test_html import game_view

    seat = {"seat": 1, "state": "taken", "name": EVIL, "kind": "human", "colour": "black",
            "hold_expires_at": EVIL}
    return game_view(game_id=EVIL, game_name=EVIL, seats=[seat, {**seat, "seat": 2, "state": "held"}],
                     black={"name": EVIL, "kind": "human"}, white={"name": EVIL, "kind": "computer"},
                     to_move={"colour": "white", "name": EVIL, "move_number": 2, "stones_to_place": 2},
                     winner={"colour": "black", "name": EVIL}, updated_at=EVIL)


def existing_pages() -> list[tuple[str, str, int]]:
    from connect6.game.shapes import AcceptedInvite, InviteInfo, ReplayMove
    from connect6.pages import (
        board_page,
        game_not_found_page,
        invite_error_page,
        invite_page,
        invite_redeemed_page,
    )

    view = hostile_view()
    waiting = view.model_copy(update={"status": "waiting_for_players"})
    invite = InviteInfo(invite_id=EVIL, game_id=EVIL, game_name=EVIL, inviter_name=EVIL, invitee_name=EVIL,
                        note=EVIL, expires_at=EVIL, status="pending")
    moves = [ReplayMove(move_number=1, colour="black", stones=[EVIL, "h8"])]
    return [
        ("board", board_page(view, moves), 2),
        ("board-waiting", board_page(waiting), 2),
        ("not-found", game_not_found_page(EVIL), 0),
        ("invite", invite_page(invite), 1),
        ("redeemed", invite_redeemed_page(AcceptedInvite(name=EVIL, colour="black", game=view)), 0),
        ("redeemed-later", invite_redeemed_page(AcceptedInvite(name=EVIL, colour=None, game=waiting),
                                                just_accepted=False), 0),
        ("error", invite_error_page(500, EVIL, EVIL), 0),
    ]


@pytest.mark.parametrize(("name", "page", "scripts"), existing_pages(),
                         ids=lambda v: v if isinstance(v, str) and len(v) < 20 else "")
def test_the_existing_pages_escape_every_player_string(name, page, scripts):
    c = collect(page)
    assert "<script>alert" not in page and EVIL not in page
    assert len(c.scripts) == scripts
    # An attribute holds the string whole or inside JSON (the board's data-moves), never broken out of
    values = [v for _, attrs in c.tags for v in attrs.values() if v and 'alert("x")' in v]
    assert all(v == EVIL or v.startswith(("[", "{", "../games/")) for v in values)
    assert EVIL in "".join(c.text) or name == "error"
