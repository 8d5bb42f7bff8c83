"""The board function's routes (public, read-only): the game view as JSON, a live HTML page, or an
SVG picture, and the game's moves for replay, each with an ETag (If-None-Match → 304). They show
names and stones, never an e-mail, token or id. A browser that opens an unknown game gets a page
saying so."""

from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query
from aws_lambda_powertools.event_handler.router import APIGatewayHttpRouter

from connect6.api import http, runtime
from connect6.api.observability import tracer
from connect6.api.params import GameId
from connect6.api.responses import (
    HTML,
    JSON,
    PAGE_METHODS,
    SVG,
    conditional,
    documented,
    dump,
    etag_of,
    html_response,
    prefers_html,
)
from connect6.game.errors import ErrorCode, GameError
from connect6.game.shapes import GameView, ReplayView

router = APIGatewayHttpRouter()
MoveNumber = Annotated[int | None, Query(ge=0, le=100_000, description=(
    "Draw the board after this many moves (0: the empty board). A move the game has not reached "
    "is 404 move_not_found; without it, the board now."))]


@router.route("/v1/games/<game_id>/board", method=PAGE_METHODS,
              summary="The game view (JSON; a live page for Accept: text/html)",
              responses=documented(
                  200, GameView, "the game view (JSON, or the live page for Accept: text/html)",
                  {404: "game_not_found (a page for Accept: text/html)"}, html=True, html_errors=True,
                  not_modified=True))
@tracer.capture_method
def board(game_id: GameId) -> Response[Any]:
    headers = http.headers(router)
    service = runtime.service()
    if prefers_html(headers, default=False):
        from connect6.pages import board_page, game_not_found_page

        try:
            view = service.view(game_id)
            moves = service.replay(game_id).moves
        except GameError as error:
            if error.code is not ErrorCode.GAME_NOT_FOUND:
                raise
            return html_response(game_not_found_page(game_id), 404)
        page = board_page(view, moves, now=service.clock())
        return conditional(headers, etag_of(page, "h"), page, HTML)
    body = dump(service.view(game_id))
    return conditional(headers, etag_of(body), body, JSON)


@router.route("/v1/games/<game_id>/moves", method=PAGE_METHODS,
              summary="Every move so far, for replay (public)",
              responses=documented(200, ReplayView, "the moves, colours and stones, and the record",
                                   {404: "game_not_found"}, not_modified=True))
@tracer.capture_method
def moves(game_id: GameId) -> Response[Any]:
    body = dump(runtime.service().replay(game_id))
    return conditional(http.headers(router), etag_of(body, "m"), body, JSON)


@router.route("/v1/games/<game_id>/board.svg", method=PAGE_METHODS,
              summary="The board as an SVG picture (now, or after move N)",
              responses=documented(
                  200, None, "the board as an SVG picture",
                  {404: "game_not_found, move_not_found (the game has not reached that move)"},
                  content_type=SVG, not_modified=True))
@tracer.capture_method
def board_svg(game_id: GameId, move: MoveNumber = None) -> Response[Any]:
    from connect6.pages import board_svg as render

    service = runtime.service()
    view = service.view(game_id) if move is None else service.board_after(game_id, move)
    picture = render(view)
    return conditional(http.headers(router), etag_of(picture, "s"), picture, SVG)
