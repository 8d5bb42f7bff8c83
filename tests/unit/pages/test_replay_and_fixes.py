"""Issue 11's page fixes and the replay markup: seats before the start, wording, the accepted
invitation's page, the 404 page, the inline icon, the SVG's intrinsic size and stone numbers."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import UTC, datetime

import pytest

from connect6.game.model import Game, Turn
from connect6.game.replay import board_after, replay_view
from connect6.game.shapes import AcceptedInvite, BoardPicture, ReplayMove
from connect6.pages import board_page, board_svg, game_not_found_page, invite_redeemed_page, status_text
from connect6.pages.html import FAVICON, content_security_policy
from tests.unit.pages.test_html import assert_self_contained, collect, game_view, view_data
from tests.wire import wire

NS = "{http://www.w3.org/2000/svg}"
MOVES = [{"move_number": 1, "colour": "black", "stones": ["h8"]},
         {"move_number": 2, "colour": "white", "stones": ["i9", "j10"]}]
REPLAY = [ReplayMove.model_validate(move) for move in MOVES]


def text_of(page: str) -> str:
    return "".join(collect(page).text)


def waiting(**seat2):
    seats = [{"seat": 1, "state": "taken", "name": "Ana", "kind": "human", "colour": None,
              "hold_expires_at": None},
             {"seat": 2, "state": "held", "name": "Ben", "kind": "human", "colour": None,
              "hold_expires_at": "2026-11-30T12:00:00Z", **seat2}]
    return game_view(status="waiting_for_players", to_move=None, black=None, white=None, move_count=0,
                     stones_placed=0, last_move=None, board=["." * 15] * 15, seats=seats)


# ------------------------------------------------------------------ seats before the start
def test_before_the_start_the_seats_agree_with_the_status_line():
    page = board_page(waiting(), [])
    text = text_of(page)
    assert "Waiting for players (1 seat held for an invited player)" in text
    assert "(open seat)" not in text
    assert "Ana" in text and "Seat 1 · seated" in text
    assert "Ben" in text and "Seat 2 · seat held for an invitation" in text
    assert "Colours are drawn at random" in text
    assert 'data-state="held"' in page and 'data-state="taken"' in page


def test_an_open_seat_is_shown_as_open():
    page = board_page(waiting(state="open", name=None, hold_expires_at=None), [])
    text = text_of(page)
    assert "Waiting for players (1 open seat)" in text
    assert text.count("(open seat)") == 1 and "Seat 2 · waiting for a player" in text


# ------------------------------------------------------------------ wording
@pytest.mark.parametrize(("view", "expected"), [
    (dict(status="completed", to_move=None, winner={"colour": "black", "name": "Computer (normal)"},
          move_count=11), "Computer (normal), playing Black, won with six in a row after 11 moves"),
    (dict(status="completed", to_move=None, end_reason="resigned",
          black={"name": "Computer (hard)", "kind": "computer"},
          winner={"colour": "white", "name": "Ben"}), "Ben, playing White, won: Computer (hard) resigned"),
    (dict(to_move={"colour": "black", "name": "Computer (easy)", "move_number": 3, "stones_to_place": 2}),
     "Computer (easy) to play move 3 with Black: 2 stones"),
])
def test_a_name_with_brackets_never_gets_a_second_pair(view, expected):
    text = status_text(game_view(**view))
    assert text.startswith(expected)
    assert ") (" not in text


# ------------------------------------------------------------------ replay markup
def test_the_board_page_has_replay_controls_and_numbered_stones():
    page = board_page(game_view(move_count=2, board=["." * 15] * 5 + ["." * 9 + "W" + "." * 5]
                                + ["." * 8 + "W" + "." * 6] + ["." * 7 + "B" + "." * 7] + ["." * 15] * 7),
                      REPLAY)
    for control in ("rp-first", "rp-back", "rp-forward", "rp-last", "rp-slider", "rp-numbers", "rp-latest"):
        assert f'id="{control}"' in page
    assert 'data-total="2"' in page and 'max="2"' in page
    assert 'data-point="h8" data-move="1"' in page and 'data-point="i9" data-move="2"' in page
    # Only our two scripts, none of them inline event handlers
    assert len(collect(page).scripts) == 2 and "onclick" not in page
    assert_self_contained(page)


def test_moves_beyond_the_view_are_not_drawn_as_numbers():
    # A move that landed between the two reads of the page is left for the next poll
    page = board_page(game_view(), REPLAY)
    assert 'data-total="1"' in page and 'data-move="2"' not in page


def test_no_controls_before_any_move():
    assert 'id="replay"' not in board_page(waiting(), [])


def picture(board: list[str]) -> BoardPicture:
    return BoardPicture(game_id="g", board_size=15, board=board, move_count=0, last_move=None,
                        winning_line=[])


def test_svg_has_an_intrinsic_size_and_hidden_numbers():
    root = ET.fromstring(board_svg(picture(["." * 15] * 7 + ["." * 7 + "B" + "." * 7] + ["." * 15] * 7),
                                   REPLAY[:1]))
    assert root.get("width") == root.get("height") == root.get("viewBox").split()[2]
    (number,) = [t for t in root.iter(f"{NS}text") if t.get("class") == "num"]
    assert number.text == "1" and number.get("display") == "none" and number.get("fill") == "#fff"
    bare = ET.fromstring(board_svg(picture([])))
    assert bare.get("width") == "672" and not [t for t in bare.iter(f"{NS}text") if t.get("class") == "num"]


# ------------------------------------------------------------------ replay domain
def test_replay_view_and_the_board_after_a_move():
    game = Game(game_id="g", game_name="G", allow_computer=False,
                created_at=datetime(2026, 1, 1, tzinfo=UTC), board_size=15)
    at = datetime(2026, 1, 1, 12, tzinfo=UTC)
    game.turns = [Turn(stones=["h8"], at=at), Turn(stones=["i9", "j10"], at=at)]
    assert wire(replay_view(game)) == {"game_id": "g", "board_size": 15, "moves": MOVES,
                                       "record": "1.h8 2.i9j10"}
    assert board_after(game, 0).board == ["." * 15] * 15 and board_after(game, 0).last_move is None
    one = board_after(game, 1)
    assert sum(row.count("B") for row in one.board) == 1 and one.last_move is not None
    assert one.last_move.stones == ["h8"]
    assert wire(board_after(game, 2).last_move) == MOVES[1]
    with pytest.raises(ValueError):
        board_after(game, 3)


# ------------------------------------------------------------------ the accepted invitation
def accepted(**view) -> AcceptedInvite:
    base = view_data(to_move={"colour": "black", "name": "Ana", "move_number": 1, "stones_to_place": 1},
                     move_count=0, last_move=None, white={"name": "Ben", "kind": "human"})
    base.update(view)
    return AcceptedInvite.model_validate({"name": "Ben", "colour": "white", "game": base})


def test_the_accepted_page_names_the_invitee_and_colour_without_repeating_itself():
    page = invite_redeemed_page(accepted())
    text = text_of(page)
    assert "You're in, Ben!" in text
    assert "You play White in Sunday club against Ana." in text
    assert "is yours" not in text
    assert "When it is your turn, the platform sends you your move sheet." in text


def test_the_accepted_page_says_when_it_is_already_their_turn():
    page = invite_redeemed_page(accepted(
        to_move={"colour": "white", "name": "Ben", "move_number": 2, "stones_to_place": 2}))
    text = text_of(page)
    assert "It's your turn now: move 2, 2 stones." in text
    assert "When it is your turn" not in text


def test_the_accepted_page_opened_later_says_who_accepted():
    text = text_of(invite_redeemed_page(accepted(), just_accepted=False))
    assert "Ben accepted this invitation" in text and "Ben plays White in Sunday club" in text
    assert "You're in" not in text


def test_the_accepted_page_of_a_finished_game():
    text = text_of(invite_redeemed_page(accepted(status="completed", to_move=None,
                                                 winner={"colour": "black", "name": "Ana"})))
    assert "The game is over. Ana, playing Black, won with six in a row" in text


# ------------------------------------------------------------------ 404 page and icon
def test_the_game_not_found_page_escapes_the_id():
    page = game_not_found_page("<b>x</b>")
    assert "We can't find this game" in text_of(page) and "<b>x</b>" not in page
    assert_self_contained(page)


def test_every_page_has_the_inline_icon_the_policy_allows():
    assert FAVICON.startswith("data:image/svg+xml,")
    assert "img-src 'self' data:" in content_security_policy()
    for page in (board_page(game_view()), game_not_found_page("x"), invite_redeemed_page(accepted())):
        icons = [attrs for tag, attrs in collect(page).tags if tag == "link" and attrs.get("rel") == "icon"]
        assert [a["href"] for a in icons] == [FAVICON]
