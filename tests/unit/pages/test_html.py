"""The spectator page and the invitation pages: escaping, content, safe JSON, no external loads."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

from connect6.game.shapes import AcceptedInvite, GameView, InviteInfo
from connect6.pages import board_page, invite_error_page, invite_page, invite_redeemed_page, script_json

EVIL = '<script>alert("x")</script>&\'"'


class Collector(HTMLParser):
    """Records tags, attributes, script bodies and visible text of a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self.text: list[str] = []
        self._in_script: dict[str, str | None] | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._in_script = dict(attrs)
            self.scripts.append((dict(attrs), ""))

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = None

    def handle_data(self, data):
        if self._in_script is not None:
            attrs, body = self.scripts[-1]
            self.scripts[-1] = (attrs, body + data)
        else:
            self.text.append(data)


def collect(page: str) -> Collector:
    c = Collector()
    c.feed(page)
    c.close()
    return c


def view_data(**extra):
    """A game view as its JSON has it, with ``extra`` fields replaced."""
    view = {
        "game_id": "run-42", "game_name": "Sunday club", "status": "in_progress",
        "seats": [{"seat": 1, "state": "taken", "name": "Ana", "kind": "human", "colour": "black",
                   "hold_expires_at": None},
                  {"seat": 2, "state": "taken", "name": "Ben", "kind": "computer", "colour": "white",
                   "hold_expires_at": None}],
        "black": {"name": "Ana", "kind": "human"}, "white": {"name": "Ben", "kind": "computer"},
        "to_move": {"colour": "white", "name": "Ben", "move_number": 2, "stones_to_place": 2},
        "move_count": 1, "stones_placed": 1, "board_size": 15,
        "board": ["." * 15] * 7 + ["." * 7 + "B" + "." * 7] + ["." * 15] * 7,
        "last_move": {"move_number": 1, "colour": "black", "stones": ["h8"]},
        "winner": None, "winning_line": [], "end_reason": None, "updated_at": "2026-11-29T12:00:00Z",
    }
    view.update(extra)
    return view


def game_view(**extra) -> GameView:
    return GameView.model_validate(view_data(**extra))


def assert_self_contained(page: str) -> None:
    c = collect(page)
    for tag, attrs in c.tags:
        for key in ("src", "href"):
            value = attrs.get(key)
            if value is not None and tag != "a" and not value.startswith("data:"):
                pytest.fail(f"<{tag} {key}={value}> loads something from outside the page")
        if tag == "a":
            assert not (attrs.get("href") or "").startswith(("http:", "https:", "//"))
    assert "@import" not in page and "url(http" not in page
    assert ('name="viewport"' in page) and page.startswith("<!doctype html>")


def test_board_page_shows_players_turn_and_moves():
    page = board_page(game_view())
    text = " ".join(collect(page).text)
    assert "Sunday club" in text and "Ana" in text and "Ben" in text
    assert "Ben to play move 2 with White: 2 stones" in text
    assert "1. Black h8" in text
    assert 'data-point="h8"' in page
    assert_self_contained(page)


def test_board_page_escapes_every_name_and_embeds_json_safely():
    # Given names that try to inject markup and close the script element
    view = game_view(game_name=EVIL, black={"name": EVIL, "kind": "human"},
                     to_move={"colour": "black", "name": EVIL, "move_number": 3, "stones_to_place": 2})
    page = board_page(view)
    c = collect(page)
    # Then there is no injected script: only our two (the JSON data and the poller)
    assert len(c.scripts) == 2
    assert "<script>alert" not in page
    # and the embedded JSON is exactly the view, parseable back
    data = [body for attrs, body in c.scripts if attrs.get("type") == "application/json"]
    assert json.loads(data[0]) == view.model_dump(mode="json")
    # and the visible text shows the name literally
    assert EVIL in "".join(c.text)


def test_script_json_cannot_close_its_element():
    text = script_json({"a": "</script><!-- \u2028 & >"})
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == {"a": "</script><!-- \u2028 & >"}


def test_finished_game_shows_result_and_stops_polling_state():
    view = game_view(status="completed", to_move=None,
                     winner={"colour": "black", "name": "Ana"},
                     winning_line=["d8", "e8", "f8", "g8", "h8", "i8"], move_count=31)
    page = board_page(view)
    text = " ".join(collect(page).text)
    assert "Ana, playing Black, won with six in a row after 31 moves" in text
    assert "Game over" in text
    assert "d8 e8 f8 g8 h8 i8" in text
    assert 'class="player black winner"' in page


def test_resignation_and_agreed_draw_say_so():
    resigned = game_view(status="completed", to_move=None, end_reason="resigned",
                         winner={"colour": "white", "name": "Ben"})
    resigned_text = " ".join(collect(board_page(resigned)).text)
    assert "Ben, playing White, won: Ana resigned after 1 move" in resigned_text
    agreed = game_view(status="draw", to_move=None, end_reason="agreed")
    assert "Draw by agreement after 1 move" in " ".join(collect(board_page(agreed)).text)


def test_draw_and_waiting_states_read_clearly():
    assert "Draw" in " ".join(collect(board_page(game_view(status="draw", to_move=None))).text)
    waiting = game_view(status="waiting_for_players", to_move=None, white=None, move_count=0,
                        seats=[{"seat": 1, "state": "taken", "name": "Ana", "kind": "human", "colour": None,
                                "hold_expires_at": None},
                               {"seat": 2, "state": "held", "name": None, "kind": "human", "colour": None,
                                "hold_expires_at": "2026-11-30T12:00:00Z"}])
    text = " ".join(collect(board_page(waiting)).text)
    assert "Waiting for players (1 seat held for an invited player)" in text
    # The chips agree with the status line (issue 11: no "(open seat)" while a seat is held)
    assert "(open seat)" not in text
    assert "Ana" in text and "Seat 1 · seated" in text
    assert "Seat 2 · seat held for an invitation" in text


def test_board_page_polls_with_etag_and_stops_when_over():
    page = board_page(game_view())
    poller = collect(page).scripts[1][1]
    assert "If-None-Match" in poller and "application/json" in poller
    assert "completed" in poller and "draw" in poller


INVITE = InviteInfo(invite_id="inv1", game_id="run-42", game_name="Sunday club", inviter_name="Ana",
                    invitee_name="Ben", note="Rematch?", expires_at="2026-11-30T09:15:00Z", status="pending")


def test_invite_page_shows_who_what_until_when_and_a_post_form():
    page = invite_page(INVITE)
    c = collect(page)
    text = " ".join(c.text)
    assert "Ana invites you" in text and "Sunday club" in text and "Rematch?" in text
    assert "Monday 30 November 2026, 09:15 UTC" in text
    forms = [a for t, a in c.tags if t == "form"]
    assert forms == [{"class": "accept", "method": "post", "action": ""}]
    names = [a.get("name") for t, a in c.tags if t == "input"]
    assert names == ["name"]
    assert any(t == "time" and a.get("datetime") == "2026-11-30T09:15:00Z" for t, a in c.tags)
    assert_self_contained(page)


def test_invite_page_escapes_note_and_names():
    page = invite_page(INVITE.model_copy(update={"inviter_name": EVIL, "invitee_name": EVIL, "note": EVIL,
                                                 "game_name": EVIL}))
    c = collect(page)
    assert "<script>alert" not in page
    assert len(c.scripts) == 1  # only the local-time helper
    assert sum(1 for _ in re.finditer(re.escape("&lt;script&gt;"), page)) >= 4
    value = next(a.get("value") for t, a in c.tags if t == "input")
    assert value == EVIL


def test_redeemed_page_confirms_and_links_the_board():
    page = invite_redeemed_page(AcceptedInvite(name=None, colour=None, game=game_view(game_id="run 42/x")))
    c = collect(page)
    text = " ".join(c.text)
    assert "You're in!" in text and "Sunday club" in text
    links = [a["href"] for t, a in c.tags if t == "a" and a.get("id") == "watch"]
    assert links == ["../games/run%2042%2Fx/board"]
    # What the page is given holds no player id to leak (the redeem response's has one).
    assert "player_id" not in AcceptedInvite.model_fields


@pytest.mark.parametrize(
    ("status", "code", "heading"),
    [(410, "invite_expired", "has expired"), (409, "invite_already_used", "already been used"),
     (404, "invite_not_found", "can't find"), (500, "x", "can't be used")],
)
def test_error_pages_say_what_happened(status, code, heading):
    page = invite_error_page(status, code, f"Because {EVIL}")
    c = collect(page)
    assert heading in " ".join(c.text)
    assert "<script>alert" not in page and not c.scripts
    assert f'data-code="{code}"' in page


def test_content_security_policy_allows_exactly_the_inline_code():
    import base64
    import hashlib

    from connect6.pages import content_security_policy

    csp = content_security_policy()
    assert "default-src 'none'" in csp and "connect-src 'self'" in csp and "form-action 'self'" in csp

    def digest(text: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"

    redeemed = AcceptedInvite(name=None, colour=None, game=game_view())
    for page in (board_page(game_view()), invite_page(INVITE), invite_redeemed_page(redeemed),
                 invite_error_page(404, "invite_not_found", "No such invitation.")):
        scripts = collect(page).scripts
        executable = [body for attrs, body in scripts if attrs.get("type") != "application/json"]
        assert all(digest(body) in csp for body in executable)
        style = page.split("<style>", 1)[1].split("</style>", 1)[0]
        assert digest(style) in csp
        assert ' style="' not in page  # no inline style attributes, which the policy would block
